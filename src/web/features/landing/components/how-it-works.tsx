import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';

const steps = [
  {
    title: 'Register & Add',
    text: 'Create your account and add your website. The first scan starts right away and finishes in about a minute.',
  },
  {
    title: 'Install Badge',
    text: 'Paste one line of HTML to show a live accessibility badge that links to your compliance page.',
  },
  {
    title: 'Public Page',
    text: 'Your domain gets a public status page with its score, recent scans and how reported issues were handled.',
  },
  {
    title: 'Download Docs',
    text: 'Download your Statement of Ongoing Compliance Efforts (PDF), a VPAT 2.4 report (Word) and issue exports.',
  },
] as const;

/**
 * The four-step carousel. It never moves on its own; the buttons say where they go and the
 * current step is announced.
 */
export function HowItWorks() {
  const [index, setIndex] = useState(0);
  const step = steps[index] ?? steps[0];
  return (
    <section aria-roledescription="carousel" aria-labelledby="how-heading" className="mt-8">
      <h2 id="how-heading" className="sr-only">
        How it works, step by step
      </h2>
      <ol className="mb-6 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {steps.map((s, i) => (
          <li key={s.title}>
            <button
              type="button"
              onClick={() => setIndex(i)}
              aria-current={i === index ? 'step' : undefined}
              className={`w-full rounded-md border px-3 py-2 text-sm font-semibold ${i === index ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-900 hover:bg-slate-100'}`}
            >
              {i + 1}. {s.title}
            </button>
          </li>
        ))}
      </ol>
      <div
        aria-roledescription="slide"
        aria-label={`Step ${index + 1} of ${steps.length}`}
        aria-live="polite"
        className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm"
      >
        <p className="text-sm font-semibold text-brand-600">
          Step {index + 1} of {steps.length}
        </p>
        <h3 className="mt-1 text-2xl font-bold">{step.title}</h3>
        <p className="mt-3 text-slate-700">{step.text}</p>
      </div>
      <div className="mt-4 flex justify-between">
        <Button
          variant="outline"
          onClick={() => setIndex((i) => (i + steps.length - 1) % steps.length)}
        >
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          Previous step
        </Button>
        <Button variant="outline" onClick={() => setIndex((i) => (i + 1) % steps.length)}>
          Next step
          <ChevronRight aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </section>
  );
}
