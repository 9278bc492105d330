import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ReportModel } from '../model.js';
import { renderVpatDocx } from './docx.js';
import { scanToOpenAcr } from './from-scan.js';

const model: ReportModel = {
  scanId: '00000000-0000-4000-8000-000000000000',
  url: 'https://shop.example/',
  finalUrl: 'https://shop.example/',
  domain: 'shop.example',
  pageTitle: 'Shop',
  createdAt: new Date('2025-01-02T10:00:00Z'),
  scannedAt: new Date('2025-01-02T10:00:10Z'),
  score: { value: 100, label: 'Excellent' },
  summary: {
    violations: { critical: 0, serious: 0, moderate: 0, minor: 0 },
    totalViolations: 0,
    needsReview: 0,
    bestPractice: 0,
    byEngine: { axe: 0, pa11y: 0, ibm: 0 },
    corroborated: 0,
  },
  engines: ['axe', 'pa11y', 'ibm'],
  engineVersions: {},
  engineErrors: {},
  processingTimes: { load: 1, axe: 1, pa11y: 1, ibm: 1, total: 4 },
  issues: [],
  aiSummary: null,
};

/** Every file of the Word package as text. */
function entries(bytes: Buffer): Record<string, string> {
  const files = unzipSync(new Uint8Array(bytes));
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

describe('VPAT Word file branding', () => {
  it('names Conformly as its creator by default and nowhere when white-labelled', async () => {
    const acr = scanToOpenAcr(model);
    const branded = entries(await renderVpatDocx(acr));
    expect(branded['docProps/core.xml']).toContain('<dc:creator>Conformly</dc:creator>');
    const plain = entries(await renderVpatDocx(acr, { whiteLabel: true }));
    for (const [name, text] of Object.entries(plain)) {
      expect(text, name).not.toMatch(/conformly/i);
    }
    expect(plain['docProps/core.xml']).not.toContain('Un-named');
    // The same report otherwise.
    expect(plain['word/document.xml']).toBe(branded['word/document.xml']);
  });
});
