import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import type { ReportIssue } from '#contract/scan-api.js';
import { IssueExplorer } from './issue-explorer';
import { loadRuleGuidance } from './rule-guidance';

const imageWithoutAlt: ReportIssue = {
  id: 'img-1',
  title: 'Image has no text alternative',
  description: 'Ensures <img> elements have alternative text or a role of none or presentation',
  impact: 'critical',
  rule: 'image-alt',
  ruleKey: '23a2a8',
  selector: '#hero > img',
  html: '<img src="hero.jpg">',
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.11/image-alt',
  kind: 'violation',
  confidence: 'confirmed',
  wcag: ['1.1.1'],
  level: 'A',
  source: 'axe',
  engines: ['axe', 'ibm', 'pa11y'],
  rules: { axe: ['image-alt'], ibm: ['img_alt_valid'], pa11y: ['WCAG2AA.H37'] },
  fix: 'Fix any of the following:\n  Element does not have an alt attribute',
  help: [
    {
      engine: 'axe',
      rule: 'image-alt',
      url: 'https://dequeuniversity.com/rules/axe/4.11/image-alt',
    },
    {
      engine: 'ibm',
      rule: 'img_alt_valid',
      url: 'https://able.ibm.com/rules/archives/latest/doc/en-US/img_alt_valid.html',
    },
    {
      engine: 'pa11y',
      rule: 'WCAG2AA.H37',
      url: 'https://www.w3.org/WAI/WCAG21/Understanding/non-text-content.html',
    },
  ],
  criteria: [
    {
      id: '1.1.1',
      name: 'Non-text Content',
      level: 'A',
      url: 'https://www.w3.org/WAI/WCAG21/Understanding/non-text-content.html',
    },
  ],
};

const render = () =>
  renderToStaticMarkup(createElement(IssueExplorer, { issues: [imageWithoutAlt] }));

/** What React's static markup makes of a text (quotes and angle brackets escaped). */
const escaped = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

describe("an issue's fix guidance in the issue explorer", () => {
  it("shows the engine's description until the guidance texts have loaded", () => {
    const html = render();
    expect(html).toContain(escaped(imageWithoutAlt.description));
    expect(html).not.toContain('What is wrong');
  });

  it('shows what is wrong, who is affected, the steps and a code example, with the engines’ help links beside', async () => {
    await loadRuleGuidance();
    const guidance = ruleGuidance('23a2a8')!;
    const html = render();
    // Under the issue's h3, the guidance's parts are h4s, in order.
    const headings = [...html.matchAll(/<h4[^>]*>([^<]+)<\/h4>/g)].map((m) => m[1]);
    expect(headings).toEqual([
      'What is wrong',
      'Who is affected',
      'How to fix it',
      'Example of correct code',
    ]);
    expect(html).toContain(escaped(guidance.what));
    expect(html).toContain(escaped(guidance.who));
    const steps = /<ol class="ml-5[^"]*">(.*?)<\/ol>/s.exec(html)?.[1] ?? '';
    for (const step of guidance.fix) expect(steps).toContain(`<li>${escaped(step)}</li>`);
    expect(html).toContain(`<code>${escaped(guidance.example)}</code></pre>`);
    // The engines' help pages stay: axe's and IBM's; HTML_CodeSniffer's is the Understanding page.
    expect(html).toContain('href="https://dequeuniversity.com/rules/axe/4.11/image-alt"');
    expect(html).toMatch(/img_alt_valid\.html"[^>]*>IBM Equal Access help: img_alt_valid/);
    expect(html.match(/non-text-content\.html"/g)).toHaveLength(1);
    // axe's failure list is labelled as what axe found, not as the fix.
    expect(html).toContain('What axe-core found on the element');
    expect(html).not.toMatch(/How to fix it \(/);
  });
});
