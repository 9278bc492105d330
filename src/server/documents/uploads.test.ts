import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { findSharedDir } from '../../../test/support/shared-dir.js';

/**
 * OpenACR uploads are anonymous and parsed on the server, so what one costs is capped: a file
 * with far more values than any OpenACR report, or nested far deeper, is refused before the
 * schema check walks it (a 6.5 MB file of 400,000 keys used to cost seconds of CPU per request),
 * and each address may upload only so many files a minute. A real report still goes through.
 */

const examples = join(findSharedDir(), 'data', 'openacr', 'examples');
const validJson = readFileSync(join(examples, 'json', 'valid.json'), 'utf8');
const validYaml = readFileSync(join(examples, 'yaml', 'valid.yaml'), 'utf8');
const tooMany = /^The report is too large: it holds more than 20,000 values/;

let service: AccountService;
let nextIp = 1;

beforeAll(async () => {
  service = await startAccountService({}, { uploadRateLimit: { max: 3, timeWindowMs: 60_000 } });
});
afterAll(() => service?.close());

/** A visitor from an address of its own, so each test has its own upload allowance. */
async function visitor() {
  const browser = new TestBrowser(service.app, `10.11.0.${nextIp++}`);
  const ip = `10.11.0.${nextIp - 1}`;
  const token = await browser.token();
  return (url: string, fileName: string, content: string) => {
    const boundary = `----conformly${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="openacr"; filename="${fileName}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return service.app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: {
        cookie: browser.cookieHeader,
        'x-csrf-token': token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  };
}

/** The valid report with `count` extra keys in its chapters, as the review's 6.5 MB file. */
function withKeys(count: number): string {
  const report = JSON.parse(validJson) as { chapters: Record<string, unknown> };
  for (let i = 0; i < count; i += 1) report.chapters[`k${i}`] = i;
  return JSON.stringify(report);
}

describe('an OpenACR upload', () => {
  it('of 400,000 keys is refused with 413 before it is checked', async () => {
    const upload = await visitor();
    const text = withKeys(400_000);
    expect(text.length).toBeGreaterThan(6_000_000);
    const response = await upload('/api/test-openacr', 'keys.json', text);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(tooMany);
    expect(response.json().message).toBe(response.json().error);
  });

  it('of 100,000 YAML keys is refused the same way', async () => {
    const upload = await visitor();
    const keys = Array.from({ length: 100_000 }, (_, i) => `  k${i}: ${i}`).join('\n');
    const response = await upload(
      '/api/generate-vpat',
      'keys.yaml',
      `${validYaml}\nextra:\n${keys}\n`,
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(tooMany);
  });

  it('whose YAML aliases expand to more values than the limit is refused', async () => {
    const upload = await visitor();
    // Eight levels of ten references each: a few hundred bytes that expand to 10^8 values.
    const lines = ['a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]'];
    for (let level = 1; level <= 8; level += 1) {
      const refs = Array.from({ length: 10 }, () => `*a${level - 1}`).join(', ');
      lines.push(`a${level}: &a${level} [${refs}]`);
    }
    const response = await upload(
      '/api/test-openacr',
      'laughs.yaml',
      `${validYaml}\n${lines.join('\n')}\n`,
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatch(tooMany);
  });

  it('nested deeper than any report is refused with 422', async () => {
    const upload = await visitor();
    const report = JSON.parse(validJson) as Record<string, unknown>;
    report.notes = JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`);
    const response = await upload('/api/test-openacr', 'deep.json', JSON.stringify(report));
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatch(/^The report nests deeper than 32 levels/);
  });

  it('that is a real report still validates and gives a VPAT', async () => {
    const upload = await visitor();
    const tested = await upload('/api/test-openacr', 'valid.json', validJson);
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json().data.totalCriteria).toBeGreaterThan(0);
    const generated = await upload('/api/generate-vpat', 'valid.yaml', validYaml);
    expect(generated.statusCode).toBe(200);
    expect(generated.headers['content-type']).toMatch(/wordprocessingml/);
  });

  it('is limited per address across both routes', async () => {
    const upload = await visitor();
    expect((await upload('/api/test-openacr', 'valid.json', validJson)).statusCode).toBe(200);
    expect((await upload('/api/generate-vpat', 'valid.json', validJson)).statusCode).toBe(200);
    expect((await upload('/api/test-openacr', 'bad.json', '{')).statusCode).toBe(422);
    const refused = await upload('/api/generate-vpat', 'valid.json', validJson);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^Too many OpenACR files uploaded from your address; try again in /,
    );
    // Another address has its own allowance.
    const other = await visitor();
    expect((await other('/api/test-openacr', 'valid.json', validJson)).statusCode).toBe(200);
  });
});
