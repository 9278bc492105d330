import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  badgeIconSizes,
  badgeLanguages,
  badgeOrientations,
  badgeSizes,
  badgeStyles,
  badgeThemes,
  badgeVariants,
  type BadgeOptions,
} from '#contract/index.js';
import { badgeColorOf, badgeLanguageOf, renderBadge, type BadgeEvidence } from './badge.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

interface SvgRoot {
  xmlns: string;
  role: string;
  'aria-label': string;
  width: string;
  height: string;
  title: string;
}

/** The badge read back as XML: it must parse, and its root is what browsers and readers see. */
function read(svg: string): SvgRoot {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) throw new Error(`invalid XML: ${JSON.stringify(valid.err)}\n${svg}`);
  const document = parser.parse(svg) as { svg?: SvgRoot };
  if (!document.svg) throw new Error(`no <svg> root: ${svg.slice(0, 80)}`);
  return document.svg;
}

const scanned = new Date('2026-11-20T10:00:00Z');
const evidences: [string, BadgeEvidence][] = [
  ['a scored domain', { domain: 'example.com', score: 87, scannedAt: scanned }],
  ['a perfect score', { domain: 'example.com', score: 100, scannedAt: scanned }],
  ['a low score', { domain: 'example.com', score: 0, scannedAt: scanned }],
  ['no scan yet', { domain: 'example.com', score: null, scannedAt: null }],
];

function* everyOption(): Generator<BadgeOptions> {
  for (const variant of badgeVariants)
    for (const style of badgeStyles)
      for (const size of badgeSizes)
        for (const iconSize of badgeIconSizes)
          for (const orientation of badgeOrientations)
            for (const theme of badgeThemes)
              for (const showPercentage of [true, false])
                for (const showDate of [true, false])
                  for (const lang of badgeLanguages)
                    yield {
                      variant,
                      style,
                      size,
                      iconSize,
                      orientation,
                      theme,
                      showPercentage,
                      showDate,
                      lang,
                    };
}

describe('renderBadge', () => {
  // A score and its absence are the two shapes of text; the bands only change a colour (below).
  it.each([evidences[0]!, evidences[3]!])(
    'draws valid SVG with an accessible name for every option combination: %s',
    (_name, evidence) => {
      let count = 0;
      for (const options of everyOption()) {
        const svg = renderBadge(evidence, options);
        const root = read(svg);
        const where = JSON.stringify(options);
        expect(root.xmlns, where).toBe('http://www.w3.org/2000/svg');
        expect(root.role, where).toBe('img');
        expect(root['aria-label'], where).toMatch(/example\.com/);
        expect(root.title, where).toBe(root['aria-label']);
        expect(Number(root.width), where).toBeGreaterThan(0);
        expect(Number(root.height), where).toBeGreaterThan(0);
        expect(svg, where).not.toMatch(/<script|javascript:|\bon\w+=/i);
        // Evidence, never a verdict.
        expect(svg.toLowerCase(), where).not.toMatch(/compliant|conform(?!ly)/);
        count++;
      }
      expect(count).toBe(3 * 4 * 3 * 3 * 2 * 2 * 2 * 2 * 4);
    },
  );

  const base: BadgeOptions = {
    variant: 'standard',
    style: 'flat',
    size: 'medium',
    iconSize: 24,
    orientation: 'horizontal',
    theme: 'light',
    showPercentage: true,
    showDate: true,
    lang: 'en',
  };
  const scored = evidences[0]![1];

  it('states the score and the scan date, and names the site and who measured it', () => {
    const svg = renderBadge(scored, base);
    expect(svg).toContain('Accessibility monitored');
    expect(svg).toContain('score 87/100 · Good · scanned November 20, 2026');
    expect(read(svg)['aria-label']).toBe(
      'Accessibility of example.com monitored by Conformly, automated scan score 87 out of 100, ' +
        'Good, last scanned November 20, 2026',
    );
  });

  it('leaves out what the owner hides, from the picture and from the name', () => {
    const noScore = renderBadge(scored, { ...base, showPercentage: false });
    expect(noScore).not.toContain('87');
    expect(read(noScore)['aria-label']).not.toContain('87');
    const nothing = renderBadge(scored, { ...base, showPercentage: false, showDate: false });
    expect(nothing).toContain('by Conformly');
    expect(nothing).not.toContain('November 20, 2026');
  });

  it('says the first scan is pending before there is one', () => {
    const svg = renderBadge(evidences[3]![1], base);
    expect(svg).toContain('first scan pending');
    expect(read(svg)['aria-label']).toContain('first scan pending');
  });

  it('says the latest audit failed, not pending nor clean, when it scanned no page', () => {
    const svg = renderBadge(
      {
        domain: 'shop.example',
        score: null,
        scannedAt: new Date('2026-11-20T10:00:00Z'),
        auditFailed: true,
      },
      base,
    );
    expect(svg).toContain('no score: latest audit failed');
    expect(read(svg)['aria-label']).toContain('no score: latest audit failed');
    expect(svg).not.toContain('first scan pending');
    const german = renderBadge(
      { domain: 'shop.example', score: null, scannedAt: null, auditFailed: true },
      { ...base, lang: 'de' },
    );
    expect(german).toContain('keine Bewertung');
  });

  it("colours the score as the vocabulary's bands: 75+, 60+, below (ADR 0013)", () => {
    expect(badgeColorOf(75)).toBe(badgeColorOf(100));
    expect(badgeColorOf(60)).toBe(badgeColorOf(74));
    expect(badgeColorOf(59)).toBe(badgeColorOf(0));
    expect(
      new Set([badgeColorOf(75), badgeColorOf(60), badgeColorOf(59), badgeColorOf(null)]).size,
    ).toBe(4);
    expect(renderBadge({ ...scored, score: 95 }, base)).toContain(badgeColorOf(95));
    expect(renderBadge({ ...scored, score: 40 }, base)).toContain(badgeColorOf(40));
  });

  it('draws the icon at 16, 24 and 32 px, with the score from 24 px up', () => {
    for (const iconSize of badgeIconSizes) {
      const root = read(renderBadge(scored, { ...base, variant: 'icon', iconSize }));
      expect([root.width, root.height]).toEqual([String(iconSize), String(iconSize)]);
    }
    expect(renderBadge(scored, { ...base, variant: 'icon', iconSize: 32 })).toContain('>87</text>');
    expect(renderBadge(scored, { ...base, variant: 'icon', iconSize: 16 })).not.toContain('<text');
  });

  it('scales with size and stacks when vertical', () => {
    const medium = read(renderBadge(scored, base));
    const large = read(renderBadge(scored, { ...base, size: 'large' }));
    expect(Number(large.width)).toBeCloseTo(Number(medium.width) * 1.5, 1);
    const vertical = read(renderBadge(scored, { ...base, orientation: 'vertical' }));
    expect(Number(vertical.height)).toBe(2 * Number(medium.height));
    expect(Number(vertical.width)).toBeLessThan(Number(medium.width));
  });

  it('keeps every id unique in a stacked badge', () => {
    const svg = renderBadge(scored, { ...base, orientation: 'vertical' });
    const ids = [...svg.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('speaks the requested language and falls back to English', () => {
    expect(badgeLanguageOf('de-AT')).toBe('de');
    expect(badgeLanguageOf('pt-BR')).toBe('en');
    expect(badgeLanguageOf(undefined)).toBe('en');
    expect(renderBadge(scored, { ...base, lang: 'de' })).toContain('Barrierefreiheit überwacht');
    expect(renderBadge(scored, { ...base, lang: 'fr' })).toContain('Accessibilité surveillée');
  });

  it('escapes text it is given', () => {
    const svg = renderBadge({ ...scored, domain: 'a&b<c>"d\'.test' }, base);
    expect(svg).toContain('a&amp;b&lt;c&gt;&quot;d&apos;.test');
    expect(svg).not.toContain('<c>');
    expect(read(svg)['aria-label']).toContain('a&b<c>"d\'.test');
  });
});
