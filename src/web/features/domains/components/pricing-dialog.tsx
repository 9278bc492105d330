import { CheckCircle2, Gift } from 'lucide-react';
import {
  complianceShieldPlan as complianceShield,
  domainTierRows,
  formatUsd,
} from '#contract/catalogue.js';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { defaultMonitorPageBudget } from '#contract/site-monitoring.js';

/** Included with every monitored domain. */
export const includedFeatures = [
  `Weekly site audits of up to ${defaultMonitorPageBudget} pages with axe-core, pa11y and IBM Equal Access`,
  'Public status page and live compliance badge',
  'Score history and alerts when a scan finds new problems',
  'Visitor concerns reported to you, with a complaints inbox',
  'Cancel anytime, with immediate effect',
];

/** Spec §2 pricing dialog: the tier table, the trial box and the included features. */
export function PricingDialog() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">View pricing</Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogTitle>{complianceShield.product} pricing</DialogTitle>
        <DialogDescription>
          Each domain is billed monthly; the more domains you monitor, the less each one costs.
        </DialogDescription>
        <table className="mt-4 w-full text-left text-sm">
          <caption className="sr-only">Monthly price of a domain by its position</caption>
          <thead className="border-b border-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-4">
                Domain
              </th>
              <th scope="col" className="py-2 text-right">
                Price per month
              </th>
            </tr>
          </thead>
          <tbody>
            {domainTierRows().map((row) => (
              <tr key={row.label} className="border-b border-slate-200">
                <th scope="row" className="py-2 pr-4 font-normal">
                  {row.label}
                </th>
                <td className="py-2 text-right font-semibold">
                  {formatUsd(row.monthlyCents)}/month
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-4 flex gap-3 rounded-md border border-green-700 bg-green-50 p-4 text-green-900">
          <Gift aria-hidden="true" className="h-6 w-6 shrink-0" />
          <div>
            <p className="font-bold">First month free</p>
            <p className="text-sm">
              A new domain is monitored free for its first month; after that it is billed at its
              tier price. A domain gets its free month once.
            </p>
          </div>
        </div>
        <h3 className="mt-4 font-semibold">Included with every domain</h3>
        <ul className="mt-2 grid gap-2 text-sm">
          {includedFeatures.map((feature) => (
            <li key={feature} className="flex gap-2">
              <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0 text-ok" />
              {feature}
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
