import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddOnCatalogueResponse,
  AddOnPagesResponse,
  AddOnPurchaseResponse,
  CreatePaymentIntentResponse,
  PurchasedAddOn,
  addOnCatalogue,
} from '#contract/index.js';
import { addOns, outboxEmails, payments, users } from '#db/schema/index.js';
import { manualReviewMark } from '#reports/vpat/from-scan.js';
import { checkOpenAcr } from '#reports/vpat/openacr.js';
import { TestBrowser } from '../../../test/support/auth.js';
import { eventually, startTestService, type TestService } from '../../../test/support/service.js';

/**
 * Add-ons over HTTP on the whole service: real scans of three fixture pages by the owner, a
 * subscription from one of them, demo payments made through `POST /api/create-payment-intent`,
 * purchases, and each document downloaded and read back in its own format (the PDFs printed by
 * the test browser).
 */

let service: TestService;
let owner: TestBrowser;
let ownerId: string;
let stranger: TestBrowser;
const domain = '127.0.0.1';
const pagesScanned = ['clean.html', 'missing-alt.html', 'low-contrast.html'];
let nextIp = 1;
/** The owner's scan of each fixture page, by page. */
const scanOf = new Map<string, string>();

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function scan(browser: TestBrowser, page: string): Promise<string> {
  const started = await browser.post('/api/scans', { url: `${service.site.url}/${page}` });
  expect(started.statusCode).toBe(202);
  const id = (started.json() as { id: string }).id;
  await eventually(async () => {
    const report = await browser.get(`/api/report/${id}`);
    const status = (report.json() as { scan: { status: string } }).scan.status;
    if (status === 'failed') throw new Error(`scan of ${page} failed`);
    return status === 'completed' ? true : undefined;
  });
  return id;
}

/** A demo payment for the add-on, as the payment dialog asks for it. */
async function pay(addOnId: string, pages: number, amount?: number) {
  const response = await owner.post('/api/create-payment-intent', {
    domain,
    addOnId,
    pages,
    ...(amount === undefined ? {} : { amount }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return CreatePaymentIntentResponse.parse(response.json());
}

async function buy(addOnId: string, pages: number) {
  const payment = await pay(addOnId, pages);
  const response = await owner.post('/api/add-ons/purchase', {
    addOnId,
    domain,
    paymentIntentId: payment.paymentIntentId,
    pages,
  });
  expect(response.statusCode, response.body).toBe(200);
  return AddOnPurchaseResponse.parse(response.json()).addOn;
}

const addOnRows = () => service.database.db.select().from(addOns);
const paymentRows = () => service.database.db.select().from(payments);
const paymentRow = async (id: string) =>
  (await service.database.db.select().from(payments).where(eq(payments.id, id)))[0];

beforeAll(async () => {
  // An AI endpoint is configured, so the AI product is on sale (the endpoint is never called:
  // scans here are analysed by the test worker, which has none).
  service = await startTestService({
    config: { ai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: undefined, model: 'test' } },
  });
  ({ browser: owner, userId: ownerId } = await signedIn('agency-owner@example.com'));
  ({ browser: stranger } = await signedIn('stranger@example.com'));
  const scanIds = [];
  for (const page of pagesScanned) {
    scanIds.push(await scan(owner, page));
    scanOf.set(page, scanIds.at(-1)!);
  }
  const subscribed = await owner.post('/api/subscribe', {
    scanId: scanIds[0],
    domain,
    email: 'agency-owner@example.com',
  });
  expect(subscribed.statusCode, subscribed.body).toBe(200);
}, 180_000);
afterAll(() => service?.close());

describe('catalogue and pages', () => {
  it('lists the eight add-ons of the spec with their prices', async () => {
    const response = await owner.get('/api/add-ons/catalogue');
    expect(response.statusCode).toBe(200);
    const entries = AddOnCatalogueResponse.parse(response.json());
    expect(entries.map((entry) => [entry.name, entry.basePrice, entry.perPagePrice])).toEqual([
      ['JSON with 3 engines', 7, 3],
      ['OpenACR JSON', 19, 7],
      ['PDF report with AI summary', 29, 7],
      ['VPAT automated', 199, 49],
      ['VPAT with review checklist', 399, 49],
      ['White-label PDF', 59, 10],
      ['White-label VPAT', 299, 49],
      ['White-label VPAT with review checklist', 499, 49],
    ]);
  });

  it("tells the owner how many of the domain's pages are scanned; strangers get 404", async () => {
    const response = await owner.get(`/api/add-ons/pages?domain=${domain}`);
    expect(response.statusCode).toBe(200);
    const answer = AddOnPagesResponse.parse(response.json());
    expect(answer.availablePages).toBe(3);
    expect(answer.pages.map((page) => page.url.split('/').pop()).sort()).toEqual(
      [...pagesScanned].sort(),
    );
    expect((await stranger.get(`/api/add-ons/pages?domain=${domain}`)).statusCode).toBe(404);
  });
});

describe('POST /api/add-ons/purchase', () => {
  it('stores one add-on at the price the server computed; an amount the browser sends is refused', async () => {
    const before = (await addOnRows()).length;
    // VPAT automated, 3 pages: 199 + 2 x 49 = 297 dollars. The browser claims 1 dollar.
    const payment = await pay('vpat-automated', 3, 1);
    expect(payment).toMatchObject({ amount: 297, currency: 'USD', demo: true });
    const order = {
      addOnId: 'vpat-automated',
      domain,
      paymentIntentId: payment.paymentIntentId,
      pages: 3,
    };
    const tampered = await owner.post('/api/add-ons/purchase', { ...order, amount: 1, price: 1 });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().message).toContain('"amount"');
    expect(await addOnRows()).toHaveLength(before);
    const response = await owner.post('/api/add-ons/purchase', order);
    expect(response.statusCode, response.body).toBe(200);
    const { message, addOn } = AddOnPurchaseResponse.parse(response.json());
    expect(addOn).toMatchObject({
      addOnId: 'vpat-automated',
      name: 'VPAT automated',
      domain,
      pages: 3,
      price: 297,
      downloadUrl: `/api/add-ons/${addOn.id}/download`,
    });
    expect(message).toContain('3 pages (3 scanned pages of 127.0.0.1 available)');

    const rows = await addOnRows();
    expect(rows).toHaveLength(before + 1);
    const row = rows.find((r) => r.id === addOn.id)!;
    expect(row).toMatchObject({
      userId: ownerId,
      type: 'vpat-automated',
      domain,
      price: 29_700,
      quantity: 3,
      status: 'active',
      stripePaymentId: payment.paymentIntentId,
    });
    expect(row.scanId).not.toBeNull();
    expect(row.description).toContain('VPAT automated for 127.0.0.1');
    expect((await paymentRow(payment.paymentIntentId))?.consumedAt).not.toBeNull();

    // Replayed (a double submit or a retry): the same add-on, nothing stored or taken twice.
    const again = await owner.post('/api/add-ons/purchase', {
      addOnId: 'vpat-automated',
      domain,
      paymentIntentId: payment.paymentIntentId,
      pages: 3,
    });
    expect(again.statusCode).toBe(200);
    const replay = AddOnPurchaseResponse.parse(again.json());
    expect(replay.addOn).toEqual(addOn);
    expect(replay.message).toContain('already bought with this payment');
    expect(await addOnRows()).toHaveLength(before + 1);

    const listed = await owner.get(`/api/add-ons?domain=${domain}`);
    expect(listed.statusCode).toBe(200);
    const list = PurchasedAddOn.array().parse(listed.json());
    expect(list.filter((entry) => entry.id === addOn.id)).toEqual([addOn]);
    expect(PurchasedAddOn.array().parse((await stranger.get('/api/add-ons')).json())).toEqual([]);
  });

  it('buys once when the same purchase arrives twice at the same time', async () => {
    const before = (await addOnRows()).length;
    const payment = await pay('openacr-json', 1);
    const body = {
      addOnId: 'openacr-json',
      domain,
      paymentIntentId: payment.paymentIntentId,
      pages: 1,
    };
    const [first, second] = await Promise.all([
      owner.post('/api/add-ons/purchase', body),
      owner.post('/api/add-ons/purchase', body),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const a = AddOnPurchaseResponse.parse(first.json()).addOn;
    expect(AddOnPurchaseResponse.parse(second.json()).addOn.id).toBe(a.id);
    expect(await addOnRows()).toHaveLength(before + 1);
  });

  it('refuses to take payment for more pages than were scanned, storing nothing', async () => {
    // JSON with 3 engines, 5 pages would be 19 dollars; only 3 pages are scanned.
    const [addOnsBefore, paymentsBefore] = [await addOnRows(), await paymentRows()];
    const response = await owner.post('/api/create-payment-intent', {
      domain,
      addOnId: 'json-3-engines',
      pages: 5,
    });
    expect(response.statusCode).toBe(409);
    expect((response.json() as { message: string }).message).toBe(
      'Only 3 pages of 127.0.0.1 have been scanned, so an add-on for 5 pages cannot be delivered: scan more pages first or buy it for 3 pages. Nothing was charged.',
    );
    // A payment made for 3 pages cannot buy 5 either.
    const payment = await pay('json-3-engines', 3);
    const purchase = await owner.post('/api/add-ons/purchase', {
      addOnId: 'json-3-engines',
      domain,
      paymentIntentId: payment.paymentIntentId,
      pages: 5,
    });
    expect(purchase.statusCode).toBe(409);
    expect((await paymentRow(payment.paymentIntentId))?.consumedAt).toBeNull();
    expect(await addOnRows()).toEqual(addOnsBefore);
    expect(await paymentRows()).toHaveLength(paymentsBefore.length + 1);
  });

  it('refuses an unknown add-on, pages below 1 and a stranger, storing nothing', async () => {
    const before = await addOnRows();
    const payment = await pay('pdf-ai-summary', 1);
    const order = {
      addOnId: 'pdf-ai-summary',
      domain,
      paymentIntentId: payment.paymentIntentId,
      pages: 1,
    };
    const cases: [TestBrowser, unknown, number, string][] = [
      [owner, { ...order, addOnId: 'gold-plated-vpat' }, 400, 'Unknown add-on ID'],
      [owner, { ...order, pages: 0 }, 400, 'Pages must be at least 1'],
      [owner, { ...order, pages: -2 }, 400, 'Pages must be at least 1'],
      [owner, { ...order, pages: 1.5 }, 400, 'Pages must be at least 1'],
      [owner, { ...order, domain: 'not-mine.example' }, 404, 'not-mine.example is not one'],
      [stranger, order, 404, '127.0.0.1 is not one of your monitored domains.'],
    ];
    for (const [browser, body, status, message] of cases) {
      const response = await browser.post('/api/add-ons/purchase', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect((response.json() as { message: string }).message).toContain(message);
    }
    const anonymous = new TestBrowser(service.app, '10.7.9.9');
    expect((await anonymous.post('/api/add-ons/purchase', order)).statusCode).toBe(401);
    expect(await addOnRows()).toEqual(before);
    // The payment is still unused and buys what it was made for.
    expect((await paymentRow(payment.paymentIntentId))?.consumedAt).toBeNull();
    const response = await owner.post('/api/add-ons/purchase', order);
    expect(response.statusCode).toBe(200);
  });

  it('does not sell an add-on for a payment made for a different one', async () => {
    const before = await addOnRows();
    const cases: [string, number, string, number, number, string][] = [
      // Paid for JSON (7 dollars), asking for the Pro VPAT (399).
      ['json-3-engines', 1, 'pro-vpat-manual', 1, 400, 'This payment is not for this purchase'],
      // The same add-on for more pages than were paid for.
      ['openacr-json', 1, 'openacr-json', 2, 400, 'This payment is not for this purchase'],
    ];
    for (const [paidFor, paidPages, asked, askedPages, status, message] of cases) {
      const payment = await pay(paidFor, paidPages);
      const response = await owner.post('/api/add-ons/purchase', {
        addOnId: asked,
        domain,
        paymentIntentId: payment.paymentIntentId,
        pages: askedPages,
      });
      expect(response.statusCode, `${paidFor} -> ${asked}`).toBe(status);
      expect((response.json() as { message: string }).message).toContain(message);
      expect((await paymentRow(payment.paymentIntentId))?.consumedAt).toBeNull();
    }
    // Another account's payment is not the caller's to spend.
    const theirs = await pay('openacr-json', 3);
    const response = await stranger.post('/api/add-ons/purchase', {
      addOnId: 'openacr-json',
      domain,
      paymentIntentId: theirs.paymentIntentId,
      pages: 3,
    });
    expect(response.statusCode).toBe(404);
    expect(await addOnRows()).toEqual(before);
  });
});

/** Every file of a Word package as text. */
function unzipText(bytes: Buffer): Record<string, string> {
  const files = unzipSync(new Uint8Array(bytes));
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

describe('GET /api/add-ons/{id}/download', () => {
  const bought = new Map<string, PurchasedAddOn>();
  beforeAll(async () => {
    for (const entry of addOnCatalogue) bought.set(entry.id, await buy(entry.id, 2));
  }, 120_000);

  async function download(id: string, browser = owner) {
    const addOn = bought.get(id)!;
    const response = await browser.get(addOn.downloadUrl);
    return { addOn, response, body: response.rawPayload };
  }

  it('JSON with 3 engines: each page with each engine’s raw output', async () => {
    const { response, body } = await download('json-3-engines');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="127.0.0.1-accessibility-3-engines-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const pages = JSON.parse(body.toString('utf8')) as {
      url: string;
      raw: { axeRaw: unknown; pa11yRaw: unknown; ibmRaw: unknown };
    }[];
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page.url).toContain(service.site.url);
      expect(page.raw.axeRaw).toHaveProperty('violations');
      expect(page.raw.pa11yRaw).toHaveProperty('issues');
      expect(page.raw.ibmRaw).toHaveProperty('report');
    }
    expect(new Set(pages.map((page) => page.url)).size).toBe(2);
  });

  it('OpenACR JSON: validates against the schema and catalog, two pages in scope', async () => {
    const { response, body } = await download('openacr-json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/-openacr-[\d-]+\.json"$/);
    const checked = checkOpenAcr(JSON.parse(body.toString('utf8')));
    expect(checked.report.notes).toContain('Scope: 2 pages of 127.0.0.1');
    expect(checked.totalCriteria).toBeGreaterThan(50);
  });

  it('PDF report: a PDF with the AI summary, branded; the white-label one names no Conformly', async () => {
    const branded = await download('pdf-ai-summary');
    expect(branded.response.statusCode).toBe(200);
    expect(branded.response.headers['content-type']).toBe('application/pdf');
    expect(branded.response.headers['content-disposition']).toMatch(
      /^attachment; filename="127.0.0.1-accessibility-report-[\d-]+\.pdf"$/,
    );
    expect(branded.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(branded.body);
    expect(text).toContain('Accessibility report: 127.0.0.1');
    expect(text).toContain('Pages (2)');
    // The scans' summaries (written from the findings, as no AI service is configured here).
    expect(text).toContain('Summary written from the findings');
    expect(text).toContain('Conformly');

    const plain = await download('white-label-pdf');
    expect(plain.response.statusCode).toBe(200);
    expect(plain.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const plainText = await pdfText(plain.body);
    expect(plainText).toContain('Accessibility report: 127.0.0.1');
    expect(plainText).not.toMatch(/conformly/i);
    expect(plain.body.toString('latin1')).not.toMatch(/conformly/i);
  });

  it('VPAT, Pro VPAT and their white-label variants: Word files that read back', async () => {
    const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const files: Record<string, Record<string, string>> = {};
    for (const id of [
      'vpat-automated',
      'pro-vpat-manual',
      'white-label-vpat',
      'white-label-pro-vpat',
    ]) {
      const { response, body } = await download(id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(docxType);
      expect(response.headers['content-disposition']).toMatch(
        id.includes('pro')
          ? /filename="127.0.0.1-pro-vpat-[\d-]+\.docx"$/
          : /filename="127.0.0.1-vpat-[\d-]+\.docx"$/,
      );
      files[id] = unzipText(body);
      expect(files[id]['word/document.xml']).toContain('Accessibility Conformance Report');
    }
    expect(files['vpat-automated']!['docProps/core.xml']).toContain('Conformly');
    expect(files['vpat-automated']!['word/document.xml']).not.toContain(manualReviewMark);
    expect(files['pro-vpat-manual']!['word/document.xml']).toContain(manualReviewMark);
    expect(files['white-label-pro-vpat']!['word/document.xml']).toContain(manualReviewMark);
    for (const id of ['white-label-vpat', 'white-label-pro-vpat']) {
      for (const [name, text] of Object.entries(files[id]!)) {
        expect(text, `${id} ${name}`).not.toMatch(/conformly/i);
      }
    }
  });

  it("names the issues the site's team marked false positive in the VPAT's and ACR's remarks", async () => {
    const report = (await owner.get(`/api/report/${scanOf.get('missing-alt.html')}`)).json() as {
      issues: { id: string; title: string; wcag: string[]; kind: string; selector: string }[];
    };
    const image = report.issues.find(
      (issue) => issue.kind === 'violation' && issue.wcag.includes('1.1.1'),
    );
    expect(image, 'the missing alt text is a violation of 1.1.1').toBeDefined();
    const note = 'A spacer image the design system hides from assistive technology';
    const remark = "judged false positives by the site's team, so not counted above";
    const textOf = (xml: string) =>
      xml
        .replace(/<[^>]+>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    const vpatText = async () =>
      textOf(unzipText((await download('vpat-automated')).body)['word/document.xml']!);
    const acrOf = async () =>
      checkOpenAcr(JSON.parse((await download('openacr-json')).body.toString('utf8')));
    const criterion = (acr: Awaited<ReturnType<typeof acrOf>>, id: string) =>
      acr.report.chapters!.success_criteria_level_a!.criteria!.find((row) => row.num === id)!
        .components![0]!.adherence!;
    expect(await vpatText()).not.toContain(remark);
    expect(criterion(await acrOf(), '1.1.1').level).toBe('does-not-support');

    const marked = await owner.post(`/api/domains/${domain}/triage`, {
      action: 'false_positive',
      issueKeys: [image!.id],
      note,
    });
    expect(marked.statusCode, marked.body).toBe(200);

    const text = await vpatText();
    expect(text).toContain(`${remark}: `);
    expect(text).toContain(`${image!.title} at /missing-alt.html: ${image!.selector} ("${note}")`);
    const acr = await acrOf();
    expect(criterion(acr, '1.1.1').notes).toContain(`("${note}")`);

    // The single page's VPAT says the same, read back from the Word file.
    const single = await owner.post('/api/generate-vpat-from-scan', {
      scanId: scanOf.get('missing-alt.html'),
    });
    expect(single.statusCode).toBe(200);
    const singleText = textOf(unzipText(single.rawPayload)['word/document.xml']!);
    expect(singleText).toContain(`${image!.title} at ${image!.selector} ("${note}")`);

    const reopened = await owner.post(`/api/domains/${domain}/triage`, {
      action: 'open',
      issueKeys: [image!.id],
      note: null,
    });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(await vpatText()).not.toContain(remark);
  });

  it("is the buyer's alone", async () => {
    const { response } = await download('openacr-json', stranger);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Add-on not found' });
    const anonymous = new TestBrowser(service.app, '10.7.9.10');
    expect((await download('openacr-json', anonymous)).response.statusCode).toBe(401);
    const missing = await owner.get('/api/add-ons/00000000-0000-4000-8000-000000000000/download');
    expect(missing.statusCode).toBe(404);
    expect((await owner.get('/api/add-ons/not-a-uuid/download')).statusCode).toBe(400);
  });
});

describe('what a bought document covers', () => {
  it('the pages scanned by the purchase, however many are scanned after it', async () => {
    const addOn = await buy('json-3-engines', 3);
    expect(addOn.description).toContain('3 pages (3 scanned pages of 127.0.0.1 available)');
    await scan(owner, 'unlabeled-inputs.html');
    const pages = AddOnPagesResponse.parse(
      (await owner.get(`/api/add-ons/pages?domain=${domain}`)).json(),
    );
    expect(pages.availablePages).toBe(4);
    expect(pages.pages[0]!.url).toContain('unlabeled-inputs.html');

    const response = await owner.get(addOn.downloadUrl);
    expect(response.statusCode).toBe(200);
    const urls = (JSON.parse(response.body) as { url: string }[]).map((page) => page.url);
    expect(urls).toHaveLength(3);
    expect(urls.some((url) => url.includes('unlabeled-inputs.html'))).toBe(false);
    // Bought now, the same add-on covers the new page too.
    const later = await buy('json-3-engines', 4);
    const laterUrls = (
      JSON.parse((await owner.get(later.downloadUrl)).body) as { url: string }[]
    ).map((page) => page.url);
    expect(laterUrls).toHaveLength(4);
    expect(laterUrls[0]).toContain('unlabeled-inputs.html');
  });
});

describe('POST /api/add-ons/{id}/refund', () => {
  it('refunds a report rejected in a review at once, e-mails its credit note, and refuses a second ask, a stranger and a missing reason', async () => {
    const bought = await buy('openacr-json', 2);
    expect(bought).toMatchObject({ pagesDelivered: 2, refund: null });
    expect(bought.refundableUntil).not.toBeNull();
    const url = `/api/add-ons/${bought.id}/refund`;
    const reason = 'Rejected in the state procurement review: no manual testing';

    const missing = await owner.post(url, {});
    expect(missing.statusCode).toBe(400);
    const stranger404 = await stranger.post(url, { reason });
    expect(stranger404.statusCode).toBe(404);

    const response = await owner.post(url, { reason });
    expect(response.statusCode, response.body).toBe(200);
    const refunded = PurchasedAddOn.parse(response.json());
    expect(refunded.refund).toMatchObject({ amount: 26, reason: `Rejected in review: ${reason}` });
    expect(refunded.refundableUntil).toBeNull();
    const row = (await addOnRows()).find((r) => r.id === bought.id)!;
    expect(row).toMatchObject({ status: 'refunded', pagesDelivered: 2 });
    expect((await paymentRow(row.stripePaymentId!))?.status).toBe('refunded');

    // The credit note goes to the buyer's billing address once the answer is sent.
    const mailed = await eventually(async () => {
      const rows = await service.database.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, 'agency-owner@example.com'));
      return rows.find((row) => row.subject.startsWith('Credit note'));
    });
    expect(mailed.subject).toMatch(/^Credit note CFY-\d{4}-\d{6}: \$26\.00$/);
    expect(mailed.text).toContain('state procurement review');

    const again = await owner.post(url, { reason });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already refunded');
    // Still listed, with its refunded state.
    const listed = PurchasedAddOn.array().parse((await owner.get('/api/add-ons')).json());
    expect(listed.find((entry) => entry.id === bought.id)?.refund?.amount).toBe(26);
  });
});
