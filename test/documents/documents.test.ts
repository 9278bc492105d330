import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { marked } from 'marked';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '#reports/vpat/catalog.js';
import { findSharedDir } from '../support/shared-dir.js';
import {
  call,
  eventually,
  newVisitor,
  startTestService,
  type TestService,
  type Visitor,
} from '../support/service.js';

/**
 * The documents of a real scan (the fixture page whose title, alt texts and link texts hold
 * markup and script), each read back in its own format, and the OpenACR tools on every example
 * report and on broken ones.
 */

const markupPage = readFileSync(
  new URL('../fixtures/documents/markup-in-text.html', import.meta.url),
  'utf8',
);
const examplesDir = join(findSharedDir(), 'data', 'openacr', 'examples');
// A <title> holds text only, so the <b> stays literal too.
const pageTitle = '<script>alert("title")</script> & <b>Shop</b>';

let service: TestService;
let visitor: Visitor;
let scanId: string;

beforeAll(async () => {
  service = await startTestService({
    routes: {
      '/markup.html': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(markupPage);
      },
    },
    // Every example and broken file goes through both upload routes from this one visitor.
    app: { uploadRateLimit: { max: 1000, timeWindowMs: 60_000 } },
  });
  visitor = await newVisitor(service.app);
  const started = await call(service.app, visitor, 'POST', '/api/scans', {
    url: `${service.site.url}/markup.html`,
  });
  expect(started.statusCode).toBe(202);
  scanId = (started.json() as { id: string }).id;
  await eventually(async () => {
    const report = await call(service.app, visitor, 'GET', `/api/report/${scanId}`);
    const status = (report.json() as { scan: { status: string } }).scan.status;
    if (status === 'failed') throw new Error('scan failed');
    return status === 'completed' ? true : undefined;
  });
});
afterAll(() => service?.close());

/** Word document text, one entry per table row: cell texts joined with " | ". */
function docxRows(bytes: Buffer): { text: string; rows: string[] } {
  const xml = strFromU8(unzipSync(new Uint8Array(bytes))['word/document.xml']!);
  const textOf = (fragment: string) =>
    [...fragment.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)]
      .map((p) => [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''))
      .join('\n')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const rows = [...xml.matchAll(/<w:tr[ >][\s\S]*?<\/w:tr>/g)].map((row) =>
    [...row[0].matchAll(/<w:tc>[\s\S]*?<\/w:tc>/g)].map((cell) => textOf(cell[0])).join(' | '),
  );
  return { text: textOf(xml), rows };
}

function upload(url: string, fileName: string, content: string | Buffer, field = 'openacr') {
  const boundary = `----conformly${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return service.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: visitor.cookie,
      'x-csrf-token': visitor.token,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([head, Buffer.from(content), tail]),
  });
}

describe('documents of a scan', () => {
  it('HTML report: standalone, accessible structure, engines per issue, page text escaped', async () => {
    const response = await call(service.app, visitor, 'GET', `/api/html-report/${scanId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const html = response.body;
    expect(html).toContain('<html lang="en">');
    for (const landmark of ['<header>', '<main id="main">', '<footer>', '<h1>', '<caption>']) {
      expect(html).toContain(landmark);
    }
    expect(html).toContain('<th scope="col">Impact</th>');
    expect(html).toMatch(/Found by \d of \d engines \(/);
    expect(html).toMatch(/Needs review \(\d+\)/);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;');
  });

  it('CSV, JSON and Markdown exports and raw engine output read back', async () => {
    const csv = await call(service.app, visitor, 'GET', `/api/report/${scanId}/export/csv`);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="127.0.0.1-.*\.csv"/);
    const rows = parseCsv(csv.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Impact',
      'Rule',
      'Title',
      'Description',
      'Selector',
      'Page',
      'WCAG criteria',
      'Engines',
      'HTML',
      'State',
    ]);
    expect(rows.some((row) => row.Selector!.includes('img'))).toBe(true);

    const json = await call(service.app, visitor, 'GET', `/api/report/${scanId}/export/json`);
    const pages = JSON.parse(json.body) as { title: string; issues: unknown[] }[];
    expect(pages[0]!.title).toBe(pageTitle);
    expect(pages[0]!.issues.length).toBe(rows.length);

    const md = await call(service.app, visitor, 'GET', `/api/report/${scanId}/export/md`);
    expect(md.body).toContain('\\<script\\>alert');
    // Rendered as a Markdown viewer would, the page's markup stays text.
    const rendered = await marked.parse(md.body);
    expect(rendered).not.toMatch(/<script/i);
    expect(rendered).not.toContain('<img src=x');
    expect(rendered).toContain('&lt;script&gt;');

    for (const engine of ['axe', 'pa11y', 'ibm']) {
      const raw = await call(service.app, visitor, 'GET', `/api/report/${scanId}/raw/${engine}`);
      expect(raw.statusCode).toBe(200);
      expect(Object.keys(JSON.parse(raw.body) as object).length).toBeGreaterThan(0);
    }
    const bad = await call(service.app, visitor, 'GET', `/api/report/${scanId}/export/xls`);
    expect(bad.statusCode).toBe(400);
  });

  it('statement PDF: tagged, with every section, the page title as text', async () => {
    const response = await call(service.app, visitor, 'GET', `/api/report/${scanId}/statement.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.includes('/StructTreeRoot')).toBe(true);
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(pdf, { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of [
      'Statement of Ongoing Compliance Efforts',
      'WCAG 2.1 Level AA',
      '127.0.0.1',
      'Current status',
      'Monitoring in place',
      'Known limitations',
      'not legal advice and not a certification',
    ]) {
      expect(flat).toContain(expected);
    }
    // Nobody monitors 127.0.0.1 here, so there is no status page to point visitors to.
    expect(flat).not.toContain('/status/');
    expect(flat).toContain('please tell the owner of 127.0.0.1');
    // The text layer may break a line inside the title; its characters must all be there as text.
    expect(flat.replace(/\s/g, '')).toContain(pageTitle.replace(/\s/g, ''));
    expect(flat).toMatch(/Accessibility score of this page: \d+\/100/);
    // One page was judged: the statement does not pass it off as the site's score.
    expect(flat).toContain('has not had a site audit yet');
  });

  it('VPAT from a scan: a row per WCAG 2.1 A/AA criterion, honest terms, 508 and EN chapters', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/generate-vpat-from-scan', {
      scanId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="127.0.0.1-vpat-\d{4}-\d{2}-\d{2}\.docx"$/,
    );
    const { text, rows } = docxRows(response.rawPayload);
    const catalog = catalogs['2.4-edition-wcag-2.1-508-eu-en']!;
    const terms = /(Supports|Partially Supports|Does Not Support|Not Applicable|Not Evaluated)$/m;
    for (const level of ['a', 'aa'] as const) {
      const chapter = catalog.chapters.find((c) => c.id === `success_criteria_level_${level}`)!;
      for (const criterion of chapter.criteria!) {
        const row = rows.find((r) => r.startsWith(`${criterion.id} ${criterion.handle} (Level`));
        expect(row, criterion.id).toBeDefined();
        expect(row!.split(' | ')[1]).toMatch(terms);
      }
    }
    const row = (id: string) => rows.find((r) => r.startsWith(`${id} `))!;
    expect(row('1.1.1')).toMatch(/Web: (Does Not Support|Partially Supports)/);
    expect(row('1.1.1')).toContain('img');
    expect(row('2.4.5')).toContain('Web: Not Evaluated');
    expect(row('4.1.1')).toContain('Web: Supports');
    expect(rows.filter((r) => r.includes('(Level AAA'))).toHaveLength(0);
    expect(text).toContain('Level A (Yes) / Level AA (Yes) / Level AAA (No)');
    expect(text).toContain('Chapter 3: Functional Performance Criteria (FPC)');
    expect(text).toContain('EN 301 549');
    const files = unzipSync(new Uint8Array(response.rawPayload));
    const footers = Object.keys(files).filter((name) => /^word\/footer\d*\.xml$/.test(name));
    expect(footers.map((name) => strFromU8(files[name]!)).join('')).toContain(
      'registered service marks of the Information Technology Industry Council',
    );
    expect(text).toContain(pageTitle);
  });

  it('filled template: the same rows with bracketed prompts for what the owner must add', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/fill-vpat-template', {
      scanId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('vpat-template-filled.docx');
    const { text, rows } = docxRows(response.rawPayload);
    expect(text).toContain('[Enter the contact information]');
    expect(rows.find((r) => r.startsWith('2.4.5 '))).toContain(
      '[To be completed after manual evaluation]',
    );
  });

  it('unknown and malformed scan ids', async () => {
    const missing = await call(
      service.app,
      visitor,
      'GET',
      '/api/html-report/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      message: 'The requested compliance assessment could not be located.',
    });
    const bad = await call(service.app, visitor, 'POST', '/api/generate-vpat-from-scan', {
      scanId: 'nope',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('OpenACR tools', () => {
  const examples = ['json', 'yaml'].flatMap((format) =>
    readdirSync(`${examplesDir}/${format}`).map((name) => ({ format, name })),
  );

  it.each(examples)('$format/$name validates and gives a VPAT .docx', async ({ format, name }) => {
    const content = readFileSync(`${examplesDir}/${format}/${name}`);
    const tested = await upload('/api/test-openacr', name, content);
    expect(tested.statusCode).toBe(200);
    const { data } = tested.json() as {
      data: { totalCriteria: number; chaptersCount: number; title: string };
    };
    expect(data.totalCriteria).toBeGreaterThan(0);
    expect(data.chaptersCount).toBeGreaterThan(0);
    expect(data.title.length).toBeGreaterThan(0);

    const generated = await upload('/api/generate-vpat', name, content);
    expect(generated.statusCode).toBe(200);
    expect(generated.headers['content-disposition']).toMatch(/-vpat-report\.docx"$/);
    const { text, rows } = docxRows(generated.rawPayload);
    expect(text).toContain(data.title);
    expect(rows.filter((r) => /^\d/.test(r)).length).toBeGreaterThanOrEqual(
      Math.min(data.totalCriteria, 1),
    );
  });

  it('keeps unquoted YAML dates as text', async () => {
    const yaml = readFileSync(`${examplesDir}/yaml/valid.yaml`, 'utf8').replace(
      'title: Lorem Ipsum',
      'title: Lorem Ipsum\nreport_date: 2023-05-12',
    );
    const generated = await upload('/api/generate-vpat', 'valid.yaml', yaml);
    expect(generated.statusCode).toBe(200);
    expect(docxRows(generated.rawPayload).text).toContain('2023-05-12');
  });

  const valid = JSON.parse(readFileSync(`${examplesDir}/json/valid.json`, 'utf8')) as {
    product: Record<string, unknown>;
    chapters: {
      success_criteria_level_a: {
        criteria: { num: string; components: { name: string; adherence: { level: string } }[] }[];
      };
    };
  };
  const broken = (change: (report: typeof valid) => void) => {
    const copy = structuredClone(valid);
    change(copy);
    return JSON.stringify(copy);
  };
  it.each([
    ['not JSON', 'bad.json', '{"title": ', 422, /^The file is not valid JSON: /],
    ['not YAML', 'bad.yaml', 'title: [unclosed', 422, /^The file is not valid YAML: /],
    ['a list', 'list.json', '[1,2]', 422, /must be an object/],
    [
      'no product name',
      'r.json',
      broken((r) => delete r.product.name),
      422,
      /^product\.name: is required$/,
    ],
    [
      'a criterion outside the catalog',
      'r.json',
      broken((r) => (r.chapters.success_criteria_level_a.criteria[0]!.num = '9.9.9')),
      422,
      /^chapters\.success_criteria_level_a\.criteria\[0\]\.num: criterion "9\.9\.9" is not in chapter/,
    ],
    [
      'an unknown level',
      'r.json',
      broken(
        (r) =>
          (r.chapters.success_criteria_level_a.criteria[0]!.components[0]!.adherence.level =
            'mostly'),
      ),
      422,
      /criteria\[0\]\.components\[0\]\.adherence\.level: unknown conformance level "mostly"/,
    ],
    [
      'an unknown component',
      'r.json',
      broken(
        (r) => (r.chapters.success_criteria_level_a.criteria[0]!.components[0]!.name = 'kiosk'),
      ),
      422,
      /components\[0\]\.name: unknown component "kiosk"/,
    ],
    [
      'a text file',
      'report.txt',
      '{}',
      415,
      /^Invalid file type: Please select a JSON file containing OpenACR data\.$/,
    ],
  ])('refuses %s with a precise error', async (_label, name, content, status, message) => {
    for (const url of ['/api/test-openacr', '/api/generate-vpat']) {
      const response = await upload(url, name, content);
      expect(response.statusCode).toBe(status);
      expect((response.json() as { error: string }).error).toMatch(message);
    }
  });

  it('refuses files of 10 MB or more, and requests without the openacr field', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const tooBig = await upload('/api/test-openacr', 'big.json', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({
      error: 'File too large: File size must be less than 10MB.',
    });
    const wrongField = await upload('/api/test-openacr', 'valid.json', '{}', 'file');
    expect(wrongField.statusCode).toBe(400);
    const noBody = await call(service.app, visitor, 'POST', '/api/generate-vpat', {});
    expect(noBody.statusCode).toBe(400);
  });
});
