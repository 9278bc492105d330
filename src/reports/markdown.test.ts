import { Lexer, marked, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { allResults, cleanPage, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { escapeInline, toMarkdown } from './markdown.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';

function tokens(markdown: string) {
  return Lexer.lex(markdown, { gfm: true });
}

describe('toMarkdown', () => {
  it('opens with a summary table with a row per page', () => {
    const table = tokens(toMarkdown(allResults.map(reportModelOf))).find(
      (t) => t.type === 'table',
    ) as Tokens.Table;
    expect(table.header.map((cell) => cell.text)).toEqual([
      'Page',
      'Score',
      'Critical',
      'Serious',
      'Moderate',
      'Minor',
      'Needs review',
      'Engines',
    ]);
    const rows = table.rows.map((cells) => cells.map((cell) => cell.text));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.slice(1, 7)).toEqual(['58 (Needs Work)', '2', '1', '1', '1', '1']);
    expect(rows[1]?.[7]).toBe('axe, pa11y, ibm (failed)');
  });

  it('groups issues by impact, most severe first', () => {
    const headings = tokens(toMarkdown([reportModelOf(imagesPage)]))
      .filter((t): t is Tokens.Heading => t.type === 'heading' && t.depth === 3)
      .map((t) => t.text);
    expect(headings).toEqual(['Critical (2)', 'Serious (1)', 'Moderate (1)', 'Minor (1)']);
  });

  it('renders page text literally: no injected HTML, links or emphasis', () => {
    const html = marked.parse(toMarkdown([reportModelOf(imagesPage)]), { async: false, gfm: true });
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain('&lt;p class=&quot;light&quot;&gt;Light *grey* _text_ `code` [link](x)');
    expect(html).not.toMatch(/<a href="x"/);
    expect(html).toContain('Images | &quot;Shop&quot;, &amp; more');
  });

  it('escapes inline text so it reads back as the same words', () => {
    const source = 'Deals *now* [50%] <script> _x_ #1 a|b';
    const html = marked.parseInline(escapeInline(source), { async: false }) as string;
    expect(html).toBe('Deals *now* [50%] &lt;script&gt; _x_ #1 a|b');
  });

  it('says so when a page has no violations and notes failed engines', () => {
    const md = toMarkdown([reportModelOf(cleanPage)]);
    expect(md).toContain('No accessibility violations found.');
    expect(md).toContain('**ibm failed:** IBM engine timed out after 30000 ms');
  });

  it('explains how to fix each reported rule once, with steps and a code example', () => {
    const md = toMarkdown([reportModelOf(imagesPage)]);
    const guidance = ruleGuidance('23a2a8')!;
    const html = marked.parse(md, { async: false, gfm: true });
    expect(md.match(/^## How to fix$/gm)).toHaveLength(1);
    expect(md.split(`**${escapeInline(guidance.title)}**`)).toHaveLength(2);
    const steps = tokens(md).filter((t): t is Tokens.List => t.type === 'list' && t.ordered);
    expect(steps.flatMap((list) => list.items.map((item) => item.text))).toEqual(
      expect.arrayContaining(guidance.fix.map(escapeInline)),
    );
    const code = tokens(md).filter((t): t is Tokens.Code => t.type === 'code');
    expect(code.map((block) => block.text)).toContain(guidance.example);
    expect(html).not.toContain('<img src="shoe.jpg"');
  });
});
