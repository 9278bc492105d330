import {
  BadgeCheck,
  FileText,
  Gauge,
  Globe,
  Layers,
  MessageSquareWarning,
  RefreshCcw,
  ScrollText,
} from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Faq } from './faq';
import { HowItWorks } from './how-it-works';
import { ProductVideo } from './product-video';
import type { UseSignup } from './signup-modal';
import { UrlForm } from './url-form';
import { defaultMonitorPageBudget } from '#contract/monitor-budget.js';
import { engineList, enginesInWords } from '#contract/vocabulary.js';

// The modal carries the form libraries; the landing page loads them when a visitor opens it.
const SignupModal = lazy(() =>
  import('./signup-modal').then((module) => ({ default: module.SignupModal })),
);

const stats = [
  { value: '3', label: 'independent engines on every page: axe-core, Pa11y and IBM Equal Access' },
  { value: '4', label: 'impact levels, from critical to minor, so you fix what matters first' },
  { value: 'Weekly', label: 'rescans of each monitored site, shown on its status page and badge' },
  { value: 'WCAG 2.1 AA', label: 'plus WCAG 2.2 target size, dragging and focus checks' },
] as const;

/** "five engines", from the contract's engine ids: no screen states a count of its own. */
const engineCount = enginesInWords();

const features = [
  {
    icon: Layers,
    title: `${engineCount.charAt(0).toUpperCase()}${engineCount.slice(1)}, one report`,
    text: `Findings of ${engineList()} are merged per element and rule, so one problem is one issue.`,
  },
  {
    icon: Gauge,
    title: 'A score you can track',
    text: 'Every scan is scored, and scores over time show whether your site is getting better.',
  },
  {
    icon: Globe,
    title: 'Public compliance page',
    text: 'A status page per domain shows your score, recent scans and how reported issues were handled.',
  },
  {
    icon: BadgeCheck,
    title: 'Live badge',
    text: 'An embeddable badge that links to your compliance page and updates after each scan.',
  },
  {
    icon: ScrollText,
    title: 'Statement PDF',
    text: 'A Statement of Ongoing Compliance Efforts that documents testing, findings and fixes.',
  },
  {
    icon: FileText,
    title: 'VPAT 2.4 reports',
    text: 'Draft VPAT Word files from your scans or from an OpenACR file, ready for procurement.',
  },
  {
    icon: RefreshCcw,
    title: 'Scheduled rescans',
    text: `Each monitored site is audited every week, up to ${defaultMonitorPageBudget} pages from its sitemaps and navigation, with what changed since the last audit.`,
  },
  {
    icon: MessageSquareWarning,
    title: 'Complaint channel',
    text: 'Visitors report barriers on your status page and you answer them before they escalate.',
  },
] as const;

export function LandingPage({ useSignup }: { useSignup: UseSignup }) {
  usePageTitle('Accessibility compliance scanning');
  const urlField = useRef<HTMLInputElement>(null);
  const [signupOpen, setSignupOpen] = useState(false);
  // Kept mounted after the first opening, so closing it returns focus to the button as usual.
  const [signupRequested, setSignupRequested] = useState(false);
  const openSignup = () => {
    setSignupRequested(true);
    setSignupOpen(true);
  };

  const scrollToUrlField = () => {
    urlField.current?.scrollIntoView({ block: 'center' });
    urlField.current?.focus({ preventScroll: true });
  };

  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto flex max-w-6xl flex-col items-center px-4 py-20 text-center">
          <p className="rounded-full bg-brand-100 px-4 py-1 text-sm font-semibold text-brand-800">
            WCAG 2.1 AA · ADA · Section 508 · EN 301 549
          </p>
          <h1 className="mt-6 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
            Find accessibility problems before your visitors do
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-700">
            Conformly scans your website with {engineCount}, scores it, keeps watching it, and
            publishes the proof of your work: a public compliance page, a live badge, a statement
            PDF and VPAT reports.
          </p>
          <UrlForm inputRef={urlField} />
          <Button variant="link" className="mt-4" onClick={openSignup}>
            Or get your free compliance page by email
          </Button>
          <ProductVideo />
        </div>
      </section>

      <section aria-labelledby="testimonial-heading" className="mx-auto max-w-4xl px-4 py-16">
        <h2 id="testimonial-heading" className="sr-only">
          What customers say
        </h2>
        <figure className="rounded-xl bg-slate-900 p-8 text-white">
          <blockquote className="text-xl leading-relaxed">
            “We had fixed our contrast and labels but could not show it. Now our status page does
            the talking, and the VPAT went straight into the tender.”
          </blockquote>
          <figcaption className="mt-4 text-slate-200">
            Head of Digital, a regional library network
          </figcaption>
        </figure>
      </section>

      <section aria-labelledby="stats-heading" className="mx-auto max-w-6xl px-4 py-8">
        <h2 id="stats-heading" className="text-3xl font-bold">
          Built on real engines, not guesswork
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {stats.map((stat) => (
            <li key={stat.label}>
              <Card className="h-full">
                <p className="text-3xl font-extrabold text-brand-600">{stat.value}</p>
                <p className="mt-2 text-slate-700">{stat.label}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="steps-heading" className="mx-auto max-w-4xl px-4 py-16">
        <h2 id="steps-heading" className="text-3xl font-bold">
          How it works
        </h2>
        <HowItWorks />
      </section>

      <section aria-labelledby="features-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="features-heading" className="text-3xl font-bold">
            Everything you need to show good faith
          </h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {features.map(({ icon: Icon, title, text }) => (
              <li key={title}>
                <Card className="h-full">
                  <Icon aria-hidden="true" className="h-8 w-8 text-brand-600" />
                  <h3 className="mt-3 font-semibold">{title}</h3>
                  <p className="mt-2 text-sm text-slate-700">{text}</p>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="complaints-heading" className="mx-auto max-w-6xl px-4 py-16">
        <div className="grid gap-8 md:grid-cols-2 md:items-center">
          <div>
            <h2 id="complaints-heading" className="text-3xl font-bold">
              A complaint channel before the lawyers
            </h2>
            <p className="mt-4 text-slate-700">
              Most accessibility complaints start with a visitor who could not finish a task. Your
              public status page has a “Report an Accessibility Issue” form: you hear about the
              barrier first, answer it, and the page shows that it was resolved.
            </p>
          </div>
          <Card>
            <h3 className="font-semibold">What a visitor can send</h3>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
              <li>A complaint, a suggestion or a question</li>
              <li>Normal or urgent priority</li>
              <li>A description of the barrier and an optional name</li>
              <li>An email address, so you can answer</li>
            </ul>
          </Card>
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="mx-auto max-w-3xl px-4 py-16">
        <h2 id="faq-heading" className="text-3xl font-bold">
          Frequently asked questions
        </h2>
        <Faq />
      </section>

      <section className="bg-brand-800 text-white" aria-labelledby="cta-heading">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-16 text-center">
          <h2 id="cta-heading" className="text-3xl font-bold">
            See your score in about a minute
          </h2>
          <p className="mt-4 text-brand-100">Free to start. No credit card needed.</p>
          <Button
            size="lg"
            className="mt-8 bg-white text-brand-800 hover:bg-brand-50"
            onClick={scrollToUrlField}
          >
            Try for free
          </Button>
        </div>
      </section>

      {signupRequested && (
        <Suspense fallback={null}>
          <SignupModal
            open={signupOpen}
            onOpenChange={setSignupOpen}
            initialUrl=""
            useSignup={useSignup}
          />
        </Suspense>
      )}
    </>
  );
}
