import type { Page, ScreenshotClip } from 'puppeteer-core';
import type { Screenshot } from '#contract/index.js';

export interface ScreenshotLimits {
  /** Full-page shots stop here; a 30,000 px page would otherwise make a huge, useless image. */
  maxFullPageHeight: number;
  /** Largest decoded JPEG kept, in bytes. */
  maxBytes: number;
  /** JPEG qualities tried in turn until the image fits `maxBytes`. */
  qualities: readonly number[];
  /**
   * The full-page shot is an overview, so it starts at this scale: half-width captures cost a
   * quarter of the pixels and fit the byte cap at the first quality on tall pages (measured: 2 s
   * of re-captures on a 6,000 px page at full scale, 0.27 s at half).
   */
  fullPageScale: number;
}

export const defaultScreenshotLimits: ScreenshotLimits = {
  maxFullPageHeight: 6_000,
  maxBytes: 512 * 1024,
  qualities: [70, 50, 35, 20],
  fullPageScale: 0.5,
};

/**
 * The `kinds` asked for (by default the half-scale full-page shot alone, clipped to
 * `maxFullPageHeight`; a viewport shot at full scale on request), each as JPEG under `maxBytes`:
 * quality is lowered first, then the image is halved. A shot that still does not fit is left out
 * rather than stored oversized.
 */
export async function takeScreenshots(
  page: Page,
  viewport: { width: number; height: number },
  limits: ScreenshotLimits = defaultScreenshotLimits,
  kinds: readonly Screenshot['kind'][] = ['full-page'],
): Promise<Screenshot[]> {
  const shots: Screenshot[] = [];
  if (kinds.includes('viewport')) {
    const top = { x: 0, y: 0, width: viewport.width, height: viewport.height };
    const visible = await capture(page, 'viewport', top, false, limits, [1, 0.5]);
    if (visible) shots.push(visible);
  }
  if (!kinds.includes('full-page')) return shots;
  const pageHeight = await page.evaluate(() =>
    Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  );
  const height = Math.max(1, Math.min(pageHeight, limits.maxFullPageHeight));
  const whole = { x: 0, y: 0, width: viewport.width, height };
  const full = await capture(page, 'full-page', whole, true, limits, [
    limits.fullPageScale,
    limits.fullPageScale / 2,
  ]);
  if (full) shots.push(full);
  return shots;
}

async function capture(
  page: Page,
  kind: Screenshot['kind'],
  clip: ScreenshotClip,
  beyondViewport: boolean,
  limits: ScreenshotLimits,
  scales: readonly number[],
): Promise<Screenshot | undefined> {
  for (const scale of scales) {
    for (const quality of limits.qualities) {
      const data = await page.screenshot({
        type: 'jpeg',
        quality,
        encoding: 'base64',
        clip: { ...clip, scale },
        captureBeyondViewport: beyondViewport,
      });
      if (decodedBytes(data) <= limits.maxBytes) {
        const width = Math.round(clip.width * scale);
        const height = Math.round(clip.height * scale);
        return { kind, mimeType: 'image/jpeg', width, height, data };
      }
    }
  }
  return undefined;
}

function decodedBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}
