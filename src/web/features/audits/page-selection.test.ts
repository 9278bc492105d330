import { describe, expect, it } from 'vitest';
import type { DiscoveredPage } from '#contract/discovery.js';
import {
  addCustomPage,
  candidatesFrom,
  removeCandidate,
  resolveCustomPath,
  selectAll,
  selectedUrls,
  selectionProblem,
  toggleCandidate,
} from './page-selection';

const home = 'https://www.acme.test/';

const discovered = (path: string, location: DiscoveredPage['location'] = 'nav') => ({
  url: new URL(path, home).href,
  text: path,
  linkText: path,
  location,
  locations: [location],
  score: 50,
  reasons: ['Linked in the navigation'],
  source: 'page' as const,
});

const result = {
  discovered: [discovered('/', 'primary'), discovered('/about'), discovered('/contact', 'footer')],
};

describe('custom paths', () => {
  it.each([
    ['about', 'https://www.acme.test/about'],
    ['/about', 'https://www.acme.test/about'],
    ['  pricing?plan=pro#top ', 'https://www.acme.test/pricing?plan=pro#top'],
    ['blog/post 1', 'https://www.acme.test/blog/post%201'],
    ['//evil.example/x', 'https://www.acme.test//evil.example/x'],
    ['HTTP://other.acme.test/page', 'http://other.acme.test/page'],
  ])('%j becomes %s', (input, url) => {
    expect(resolveCustomPath(input, home)).toBe(url);
  });

  it("takes the homepage's protocol and host, not its path", () => {
    expect(resolveCustomPath('team', 'http://127.0.0.1:8080/en/index.html')).toBe(
      'http://127.0.0.1:8080/team',
    );
  });

  it.each(['', '   '])('ignores the empty entry %j', (input) => {
    expect(resolveCustomPath(input, home)).toBeNull();
    expect(addCustomPage(candidatesFrom(result), input, home).outcome).toEqual({ kind: 'empty' });
  });

  it('adds a custom page selected, named Custom Page', () => {
    const { list, outcome } = addCustomPage(
      selectAll(candidatesFrom(result), false, { lockHomepage: false }),
      'faq',
      home,
    );
    expect(outcome).toEqual({ kind: 'added', url: 'https://www.acme.test/faq' });
    expect(list.at(-1)).toMatchObject({
      url: 'https://www.acme.test/faq',
      text: 'Custom Page',
      custom: true,
      selected: true,
      score: null,
    });
    expect(selectedUrls(list)).toEqual(['https://www.acme.test/faq']);
  });

  it('selects a page already listed instead of listing it twice', () => {
    const start = selectAll(candidatesFrom(result), false, { lockHomepage: false });
    const { list, outcome } = addCustomPage(start, '/about', home);
    expect(outcome.kind).toBe('already-listed');
    expect(list).toHaveLength(3);
    expect(selectedUrls(list)).toEqual(['https://www.acme.test/about']);
  });
});

describe('selection', () => {
  it('preselects every discovered page, or the first N', () => {
    expect(selectedUrls(candidatesFrom(result))).toHaveLength(3);
    expect(selectedUrls(candidatesFrom(result, 2))).toEqual([
      'https://www.acme.test/',
      'https://www.acme.test/about',
    ]);
  });

  it('keeps the homepage selected and listed where it is locked (smart discovery)', () => {
    const rules = { lockHomepage: true };
    const list = candidatesFrom(result);
    expect(toggleCandidate(list, home, rules)[0]!.selected).toBe(true);
    expect(removeCandidate(list, home, rules)).toHaveLength(3);
    expect(selectedUrls(selectAll(list, false, rules))).toEqual([home]);
    const about = 'https://www.acme.test/about';
    expect(toggleCandidate(list, about, rules)[1]!.selected).toBe(false);
    expect(removeCandidate(list, about, rules).map((p) => p.url)).not.toContain(about);
  });

  it('lets every page be unchecked on the smart scan', () => {
    const rules = { lockHomepage: false };
    const list = toggleCandidate(candidatesFrom(result), home, rules);
    expect(list[0]!.selected).toBe(false);
    expect(selectedUrls(selectAll(list, false, rules))).toEqual([]);
    expect(selectedUrls(selectAll(list, true, rules))).toHaveLength(3);
  });

  it('needs between one and ten selected pages', () => {
    expect(selectionProblem(0)).toBe('Select at least one page to scan.');
    expect(selectionProblem(1)).toBeNull();
    expect(selectionProblem(10)).toBeNull();
    expect(selectionProblem(11)).toBe(
      'Maximum 10 URLs allowed per audit. 11 pages are selected: deselect 1 page.',
    );
    expect(selectionProblem(14)).toMatch(/deselect 4 pages\.$/);
  });
});
