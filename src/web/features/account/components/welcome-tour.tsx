import * as DialogPrimitive from '@radix-ui/react-dialog';
import { BellRing, FileBadge, Globe, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  catalogueAddOns,
  complianceShieldPlan as complianceShield,
  domainTierRows,
  formatUsd,
} from '#contract/catalogue.js';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast-store';
import { useCompleteTour, useWelcomeTourDue } from '../api/tour';
import { defaultMonitorPageBudget } from '#contract/monitor-budget.js';

/**
 * The welcome tour (spec dashboard-area §2, §4): three steps in a Radix dialog (focus moves in
 * and stays there, Escape skips, the dialog is named by its step's heading), shown once per
 * account: finishing or skipping is stored on the server (tour_completed_at), so it does not
 * come back on another browser. The spec's "90-day free trial" toast says what the plan gives
 * instead, the first month free (docs/decisions/0006-free-month.md); its older add-on prices are
 * today's catalogue.
 */

interface Tile {
  icon: LucideIcon;
  title: string;
  text: string;
}

const welcomeTiles: Tile[] = [
  {
    icon: Globe,
    title: 'Monitor your domains',
    text: `Each domain gets a site audit every week, up to ${defaultMonitorPageBudget} pages, by axe-core, pa11y, IBM Equal Access and our own checks.`,
  },
  {
    icon: FileBadge,
    title: 'Show your good faith',
    text: 'A public status page, an embeddable badge, an accessibility statement and VPAT reports.',
  },
  {
    icon: BellRing,
    title: 'Hear about problems first',
    text: 'E-mail alerts when a score drops or a new critical issue appears, and a complaints inbox.',
  },
];

const stepTitles = [
  `Welcome to ${complianceShield.product}`,
  'Tiered domain pricing',
  'Additional reports and services',
];

function WelcomeStep() {
  return (
    <>
      <p className="mt-2 text-slate-700">
        Your dashboard keeps your websites accessible and shows that you care. Here is what it does.
      </p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-3">
        {welcomeTiles.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-lg border border-slate-200 p-4">
            <Icon aria-hidden="true" className="h-6 w-6 text-brand-600" />
            <p className="mt-2 font-semibold">{title}</p>
            <p className="mt-1 text-sm text-slate-700">{text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

function PricingStep() {
  return (
    <>
      <p className="mt-2 text-slate-700">
        Each domain you add costs the same or less than the one before. Every new domain&apos;s
        first month is free; cancel anytime.
      </p>
      <table className="mt-4 w-full text-left text-sm">
        <caption className="sr-only">Monthly price per domain</caption>
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-1 pr-4">
              Domain
            </th>
            <th scope="col" className="py-1">
              Price per month
            </th>
          </tr>
        </thead>
        <tbody>
          {domainTierRows().map((row) => (
            <tr key={row.label} className="border-b border-slate-200">
              <td className="py-1 pr-4">{row.label}</td>
              <td className="py-1 font-semibold">{formatUsd(row.monthlyCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ReportsStep() {
  return (
    <>
      <p className="mt-2 text-slate-700">
        One-time reports for a monitored domain, bought from the Domains page, priced by the pages
        they cover.
      </p>
      <ul className="mt-4 grid gap-2 text-sm">
        {catalogueAddOns.map((addOn) => (
          <li key={addOn.id} className="flex justify-between gap-4 border-b border-slate-200 pb-1">
            <span>
              {addOn.name}
              {addOn.requiresAi && (
                <span className="text-slate-700"> (where an AI assistant is set up)</span>
              )}
            </span>
            <span className="font-semibold whitespace-nowrap">
              {formatUsd(addOn.basePriceCents)} + {formatUsd(addOn.perPageCents)}/page
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

const steps = [WelcomeStep, PricingStep, ReportsStep];

/** Shown on the overview to a signed-in owner with the plan who has not seen it yet. */
export function WelcomeTour() {
  const due = useWelcomeTourDue();
  const complete = useCompleteTour();
  const [step, setStep] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const open = !dismissed && due;

  // Each step's heading takes focus, so a screen reader reads where the tour is now.
  useEffect(() => {
    if (open) heading.current?.focus();
  }, [open, step]);

  const close = (outcome: 'finished' | 'skipped') => {
    setDismissed(true);
    complete.mutate(outcome, {
      onError: () =>
        toast({
          title: 'The tour could not be saved',
          description: 'It may show again next time.',
          variant: 'destructive',
        }),
    });
    if (outcome === 'finished') {
      toast({
        title: 'Welcome aboard!',
        description: `Every new domain's first month of ${complianceShield.product} is free. Add your first on the Domains page.`,
        variant: 'success',
      });
    }
  };

  if (!open) return null;
  const Step = steps[step]!;
  const last = step === steps.length - 1;
  return (
    <DialogPrimitive.Root
      open
      onOpenChange={(next) => {
        if (!next) close('skipped');
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <DialogPrimitive.Content
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            heading.current?.focus();
          }}
          // A click beside the tour is no answer to it: Skip Tour and Escape are.
          onInteractOutside={(event) => event.preventDefault()}
        >
          <p className="text-sm font-semibold text-brand-700" aria-live="polite">
            Step {step + 1} of {steps.length}
          </p>
          <DialogPrimitive.Title
            ref={heading}
            tabIndex={-1}
            className="mt-1 text-2xl font-bold focus:outline-none"
          >
            {stepTitles[step]}
          </DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            A three-step introduction to your dashboard. Press Escape to skip it.
          </DialogPrimitive.Description>
          <Step />
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <Button type="button" variant="ghost" onClick={() => close('skipped')}>
              Skip Tour
            </Button>
            <div className="flex gap-3">
              {step > 0 && (
                <Button type="button" variant="outline" onClick={() => setStep(step - 1)}>
                  Previous
                </Button>
              )}
              <Button type="button" onClick={() => (last ? close('finished') : setStep(step + 1))}>
                {last ? 'Start Using Dashboard' : 'Next'}
              </Button>
            </div>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
