import { reportRefundPolicy } from '#contract/catalogue.js';
import { LegalPage, supportEmail } from './legal-page';

export function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated="22 November 2026">
      <p>These terms apply when you use Conformly. By creating an account you accept them.</p>
      <h2>The service</h2>
      <p>
        Conformly scans websites with automated accessibility engines and produces scores, reports,
        public compliance pages, badges, statements and VPAT drafts.
      </p>
      <h2>Not legal advice or certification</h2>
      <p>
        Automated testing cannot find every accessibility barrier. Our reports and documents are not
        legal advice and are not a certification of compliance with the ADA, Section 508, EN 301 549
        or WCAG.
      </p>
      <h2>Who may use it</h2>
      <p>
        You must be at least 13 years old, and you may only scan websites you are allowed to test.
      </p>
      <h2>Payments and refunds</h2>
      <p>
        Paid plans are billed in US dollars. If a report you bought is formally rejected in a
        procurement or compliance review, you can ask for a refund within{' '}
        {reportRefundPolicy.withinDays} days.
      </p>
      <p>
        You can cancel your plan at any time, with immediate effect: monitoring, the status page and
        the badge stop, your scans and history are kept, and nothing more is charged. The month
        under way is not refunded; instead, reactivating a domain before the end of the month it had
        costs nothing.
      </p>
      <h2>Governing law</h2>
      <p>These terms are governed by the laws of the State of Delaware.</p>
      <h2>Contact</h2>
      <p>
        Questions about these terms:{' '}
        <a className="text-brand-600 underline" href={`mailto:${supportEmail}`}>
          {supportEmail}
        </a>
        .
      </p>
    </LegalPage>
  );
}
