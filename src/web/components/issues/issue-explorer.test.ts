import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReportIssue } from '#contract/scan-api.js';
import { IssueExplorer } from './issue-explorer';

const review = (id: string, ruleKey: string, title: string): ReportIssue => ({
  id,
  title,
  description: title,
  impact: 'moderate',
  rule: ruleKey,
  ruleKey,
  selector: `#${id}`,
  html: `<p id="${id}">`,
  helpUrl: '',
  kind: 'needs-review',
  confidence: 'unconfirmed',
  wcag: ['1.3.3'],
  level: 'A',
  source: 'ibm',
  engines: ['ibm'],
  rules: { ibm: [ruleKey] },
});

describe('IssueExplorer', () => {
  it('shows routine manual checks in a collapsed disclosure, counted apart from needs-review', () => {
    const html = renderToStaticMarkup(
      createElement(IssueExplorer, {
        issues: [
          review('a', 'afw4f7', 'Text has minimum contrast'),
          review('b', 'ibm:text_sensory_misuse', 'Instructions rely on shape or position'),
          review('c', 'ibm:text_quoted_correctly', 'Quotations are marked up'),
        ],
      }),
    );
    // The needs-review tab counts the one real review item.
    expect(html).toMatch(/Needs review<span[^>]*>1<\/span>/);
    // One disclosure button, collapsed, controlling a hidden panel with both manual checks.
    const button =
      /<button[^>]*aria-expanded="false"[^>]*aria-controls="([^"]+)"[^>]*>(?:(?!<\/button>).)*Manual checks(?:(?!<\/button>).)*>2<\/span>/s.exec(
        html,
      );
    expect(button).not.toBeNull();
    const panel = new RegExp(`<div id="${button![1]}" hidden=""`).test(html);
    expect(panel).toBe(true);
    expect(html).toContain('Instructions rely on shape or position');
  });

  it('leaves the disclosure out when there is no manual check', () => {
    const html = renderToStaticMarkup(
      createElement(IssueExplorer, {
        issues: [review('a', 'afw4f7', 'Text has minimum contrast')],
      }),
    );
    expect(html).not.toContain('Manual checks');
  });
});
