import escapeHtml from 'escape-html';
import type { InvoiceKind, InvoiceLine, InvoiceParty } from '#contract/index.js';

/**
 * An invoice or credit note as self-contained HTML, printed to a tagged PDF by Chromium
 * (server/documents/pdf.ts) like the accessibility statement. Seller and buyer are printed as
 * they were when the document was issued; the tax fields (tax ID of both parties, tax rate and
 * amount) are always present, empty or zero when nothing applies, so the layout an accountant
 * reads does not change from one invoice to the next.
 */
export interface InvoiceDocument {
  number: string;
  kind: InvoiceKind;
  issuedAt: Date;
  currency: string;
  amountCents: number;
  lines: InvoiceLine[];
  seller: InvoiceParty;
  buyer: InvoiceParty;
  /** For a credit note: the number of the invoice it credits. */
  creditsNumber?: string | null;
  /** The provider's reference of the charge. */
  paymentId?: string | null;
  /** True when the charge was made by the demo provider: no money moved. */
  demo?: boolean;
}

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() })
    .format(cents / 100)
    .replace('-', '−');
}

function party(title: string, p: InvoiceParty): string {
  const e = (value: string | undefined) => escapeHtml(value ?? '');
  const row = (label: string, value: string | undefined) =>
    `<tr><th scope="row">${label}</th><td>${value ? e(value).replace(/\n/g, '<br>') : '<span class="empty">—</span>'}</td></tr>`;
  return `<section class="party" aria-labelledby="${title.toLowerCase()}-h">
  <h2 id="${title.toLowerCase()}-h">${title}</h2>
  <table>
    ${row('Name', p.name)}
    ${row('Email', p.email)}
    ${row('Address', p.address)}
    ${row('Country', p.country)}
    ${row('Tax ID', p.taxId)}
  </table>
</section>`;
}

export function renderInvoiceHtml(doc: InvoiceDocument): string {
  const e = (value: string) => escapeHtml(value);
  const credit = doc.kind === 'credit_note';
  const title = credit ? 'Credit note' : 'Invoice';
  const money = (cents: number) => e(formatMoney(credit ? -cents : cents, doc.currency));
  const lines = doc.lines
    .map(
      (line) =>
        `<tr><td>${e(line.description)}</td><td class="num">${line.quantity}</td><td class="num">${money(line.unitCents)}</td><td class="num">${money(line.amountCents)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title} ${e(doc.number)}</title>
<style>
  @page { size: A4; margin: 18mm; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; font-size: 11pt; }
  h1 { font-size: 20pt; margin: 0 0 4pt; }
  h2 { font-size: 12pt; margin: 0 0 4pt; }
  .meta th, .party th { text-align: left; font-weight: 600; padding-right: 10pt; vertical-align: top; }
  .parties { display: flex; gap: 24pt; margin: 16pt 0; }
  .party { flex: 1; }
  .empty { color: #555; }
  table.lines { width: 100%; border-collapse: collapse; margin-top: 12pt; }
  table.lines th, table.lines td { border-bottom: 1px solid #bbb; padding: 5pt 4pt; text-align: left; }
  .num { text-align: right !important; white-space: nowrap; }
  tfoot th, tfoot td { font-weight: 600; }
  .note { margin-top: 16pt; color: #333; font-size: 10pt; }
</style>
</head>
<body>
<main>
<h1>${title} ${e(doc.number)}</h1>
<table class="meta">
  <tr><th scope="row">${title} number</th><td>${e(doc.number)}</td></tr>
  <tr><th scope="row">Date of issue</th><td>${e(longDate.format(doc.issuedAt))}</td></tr>
  ${credit ? `<tr><th scope="row">Credits invoice</th><td>${e(doc.creditsNumber ?? '—')}</td></tr>` : ''}
  <tr><th scope="row">Payment reference</th><td>${e(doc.paymentId ?? '—')}</td></tr>
  <tr><th scope="row">Currency</th><td>${e(doc.currency.toUpperCase())}</td></tr>
</table>
<div class="parties">
${party('Seller', doc.seller)}
${party('Buyer', doc.buyer)}
</div>
<table class="lines">
  <caption class="empty" style="text-align:left">${credit ? 'Amounts credited' : 'Amounts charged'}</caption>
  <thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>
${lines}
  </tbody>
  <tfoot>
    <tr><th scope="row" colspan="3">Subtotal</th><td class="num">${money(doc.amountCents)}</td></tr>
    <tr><th scope="row" colspan="3">Tax rate</th><td class="num">0%</td></tr>
    <tr><th scope="row" colspan="3">Tax</th><td class="num">${money(0)}</td></tr>
    <tr><th scope="row" colspan="3">Total</th><td class="num">${money(doc.amountCents)}</td></tr>
  </tfoot>
</table>
<p class="note">${
    doc.demo
      ? 'Demo payment: this service runs with its demo payment provider, so no card was charged and no money moved.'
      : credit
        ? 'This amount is refunded to the card the charge was made on.'
        : 'Paid by card. Thank you.'
  } No tax is charged on this ${credit ? 'credit note' : 'invoice'}; the tax fields are kept for your records.</p>
</main>
</body>
</html>`;
}
