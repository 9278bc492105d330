import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
} from '../../../components/ui/accordion';
import { complianceShieldPlan, domainPriceCents, formatUsd } from '#contract/catalogue.js';
import { engineList, enginesInWords } from '#contract/vocabulary.js';

/** Spec §2: nine questions. */
const questions = [
  {
    q: 'What does Conformly check?',
    a: `Every scan loads your page once in a real browser and runs ${enginesInWords()} on it: ${engineList()}. Their findings are merged, scored against WCAG 2.1 AA (plus the WCAG 2.2 checks for target size, dragging and focus not obscured) and grouped by impact: critical, serious, moderate and minor.`,
  },
  {
    q: `Why ${enginesInWords()} instead of one?`,
    a: 'Each engine knows rules the others miss. Running them on the same loaded page finds more real problems, and where they agree you can be more confident a finding is real.',
  },
  {
    q: 'Does an automated scan make my site compliant?',
    a: 'No tool can promise that. Automated checks find a large share of common barriers, but some criteria need a person to judge. Conformly shows what needs manual review and documents your ongoing efforts. It is not legal advice or certification.',
  },
  {
    q: 'What is the public compliance page?',
    a: 'Each domain gets a public status page with its current score, its recent scans and how reported issues were handled. Link it from your footer or badge so visitors and procurement teams can see your commitment.',
  },
  {
    q: 'What is a VPAT and can I download one?',
    a: 'A Voluntary Product Accessibility Template (VPAT 2.4) reports how a product meets WCAG, Section 508 and EN 301 549. Conformly drafts one as a Word file from your scan results, or from an OpenACR file you upload.',
  },
  {
    q: 'What is the Statement of Ongoing Compliance Efforts?',
    a: 'A PDF that records what you tested, what was found and what you are fixing, with dates. It shows good faith when someone asks about your accessibility work.',
  },
  {
    q: 'How often are sites re-scanned?',
    a: 'Monitored domains are scanned again on a schedule, so your score, your status page and your badge stay current without you starting each scan.',
  },
  {
    q: 'How does the complaint channel work?',
    a: 'Visitors can report an accessibility barrier from your public status page. You see each report, can answer it and mark it resolved, and the page shows that issues are handled, before a complaint becomes a legal letter.',
  },
  {
    q: 'Is there a free trial?',
    a: `Yes. Scanning and your public page are free, no credit card needed. ${complianceShieldPlan.product} costs ${formatUsd(domainPriceCents(1, 'month'))} per month for your first domain, less for each further one, and every new domain's first month is free.`,
  },
] as const;

export function Faq() {
  return (
    <Accordion type="single" collapsible className="mt-8">
      {questions.map((item, index) => (
        <AccordionItem key={item.q} value={`faq-${index}`}>
          <AccordionTrigger>{item.q}</AccordionTrigger>
          <AccordionContent>{item.a}</AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
