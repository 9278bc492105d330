import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { imageAnimation, runningTimeMs } from './animated-images.js';
import { gifBytes } from './gif-bytes.test-support.js';
import { runPresentationChecks } from './presentation.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const viewport = { width: 1280, height: 1024 };
let site: TestServer;
let pool: PagePool;

const gif = (bytes: Buffer) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'image/gif' }).end(bytes);

beforeAll(async () => {
  site = await startStaticServer(fixtures, {
    routes: {
      // Half a second a frame, looping for ever.
      '/animated.gif': gif(gifBytes(3, 50, 0)),
      '/still.gif': gif(gifBytes(1, 0)),
      // Three tenths of a second, played once: stops well within 5 s.
      '/short.gif': gif(gifBytes(3, 10)),
    },
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function presentationResults(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.setViewport(viewport);
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runPresentationChecks(page, { viewport });
  });
}

const summary = (results: OwnCheckResult[]) =>
  results.map((r) => `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector}`).sort();

describe('presentation checks', () => {
  it('finds a fixed-width layout that scrolls sideways at 320 px', async () => {
    expect(summary(await presentationResults('reflow-fixed.html'))).toEqual([
      'reflow-horizontal-scroll violation 1.4.10 #page',
    ]);
  });

  it('leaves data tables, code and images that scroll in two dimensions alone', async () => {
    expect(summary(await presentationResults('reflow-responsive.html'))).toEqual([]);
  });

  it('finds boxes that cut their text off at 320 px, with text at 200 % and with wider text spacing', async () => {
    expect(summary(await presentationResults('clipping-bad.html'))).toEqual(
      [
        'reflow-text-clipped violation 1.4.10 #narrow-clip',
        'text-resize-clipped needs-review 1.4.4 #fixed-box',
        'text-resize-clipped needs-review 1.4.4 #narrow-clip',
        'text-resize-clipped needs-review 1.4.4 #spill',
        'text-resize-clipped needs-review 1.4.4 #spacing-box',
        'text-spacing-clipped violation 1.4.12 #spacing-box',
      ].sort(),
    );
  });

  it('finds nothing on boxes that grow with their text, visually hidden text or a carousel', async () => {
    expect(summary(await presentationResults('clipping-good.html'))).toEqual([]);
  });

  it('finds CSS-inserted words, tiny text, text sized in vw, long styled runs and an endless animation', async () => {
    const results = await presentationResults('style-bad.html');
    expect(summary(results)).toEqual(
      [
        'css-generated-content needs-review 1.3.1 #news',
        'text-too-small best-practice  #tiny',
        'text-justified best-practice 1.4.8 #justified',
        'text-all-caps best-practice 1.4.8 #caps',
        'text-italic best-practice 1.4.8 #italic',
        'animated-image needs-review 2.2.2 #animated',
        'text-viewport-units violation 1.4.4 #vw-text',
      ].sort(),
    );
    expect(results.find((r) => r.check === 'animated-image')?.details).toMatchObject({
      format: 'gif',
      frames: 3,
      plays: 'forever',
    });
  });

  it('finds nothing on icons, quotes, bullets, readable text, vw with a rem part and still or short animations', async () => {
    expect(summary(await presentationResults('style-good.html'))).toEqual([]);
  });

  it('leaves the page as it found it: viewport, scroll position, inline styles and text spacing', async () => {
    await pool.withPage(async (page) => {
      await page.setViewport(viewport);
      await page.goto(`${site.url}/clipping-bad.html`, { waitUntil: 'load' });
      await page.evaluate(() => {
        document.body.style.height = '3000px';
        window.scrollTo(0, 500);
      });
      const rendering = () =>
        page.evaluate(() => {
          const box = document.querySelector('#spacing-box')!;
          const style = getComputedStyle(box);
          return [
            document.documentElement.outerHTML,
            style.lineHeight,
            style.letterSpacing,
            style.fontSize,
            Object.getOwnPropertySymbols(window).map(String).join(),
          ];
        });
      const before = await rendering();
      await runPresentationChecks(page, { viewport });
      expect(page.viewport()).toMatchObject(viewport);
      expect(await page.evaluate(() => [innerWidth, scrollY])).toEqual([1280, 500]);
      expect(await rendering()).toEqual(before);
    });
  });
});

describe('image animation', () => {
  it('counts GIF frames, their delays and loops', () => {
    expect(imageAnimation(gifBytes(3, 50, 0))).toEqual({
      format: 'gif',
      frames: 3,
      durationMs: 1500,
      plays: Infinity,
    });
    expect(imageAnimation(gifBytes(1, 0))).toMatchObject({ frames: 1, plays: 1 });
    const short = imageAnimation(gifBytes(3, 10))!;
    expect(runningTimeMs(short)).toBe(300);
    expect(runningTimeMs(imageAnimation(gifBytes(4, 100, 2))!)).toBe(12_000);
  });

  it('reads animated PNG and WebP headers', () => {
    const chunk = (type: string, data: number[]) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      return [...length, ...Buffer.from(type), ...data, 0, 0, 0, 0];
    };
    const fctl = (delay: number) => [...Array(20).fill(0), 0, delay, 0, 10, 0, 0];
    const apng = Buffer.from([
      0x89,
      ...Buffer.from('PNG\r\n\x1a\n'),
      ...chunk('acTL', [0, 0, 0, 2, 0, 0, 0, 0]),
      ...chunk('fcTL', fctl(5)),
      ...chunk('fcTL', fctl(5)),
      ...chunk('IEND', []),
    ]);
    expect(imageAnimation(apng)).toEqual({
      format: 'png',
      frames: 2,
      durationMs: 1000,
      plays: Infinity,
    });
    const riff = (type: string, data: number[]) => {
      const size = Buffer.alloc(4);
      size.writeUInt32LE(data.length);
      return [...Buffer.from(type), ...size, ...data, ...(data.length % 2 ? [0] : [])];
    };
    const anmf = (ms: number) => [...Array(12).fill(0), ms & 0xff, (ms >> 8) & 0xff, 0, 0];
    const webp = Buffer.from([
      ...Buffer.from('RIFF'),
      0,
      0,
      0,
      0,
      ...Buffer.from('WEBP'),
      ...riff('VP8X', [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      ...riff('ANIM', [0, 0, 0, 0, 3, 0]),
      ...riff('ANMF', anmf(700)),
      ...riff('ANMF', anmf(700)),
    ]);
    expect(imageAnimation(webp)).toEqual({ format: 'webp', frames: 2, durationMs: 1400, plays: 3 });
  });
});
