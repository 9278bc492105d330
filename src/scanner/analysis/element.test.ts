import { describe, expect, it } from 'vitest';
import {
  openingTagsAgree,
  parseCssPath,
  parseOpeningTag,
  parseXPath,
  pathsAgree,
  xpathToCss,
} from './element.js';

describe('element identity', () => {
  it('matches an IBM XPath with a pa11y nth-child path of the same element', () => {
    const ibm = parseXPath('/html[1]/body[1]/main[1]/img[1]');
    const pa11y = parseCssPath('html > body > main > img:nth-child(3)', 'only-of-type');
    expect(ibm && pa11y && pathsAgree(ibm, pa11y)).toBe(true);
  });

  it('refuses paths that contradict each other', () => {
    const second = parseXPath('/html[1]/body[1]/main[1]/img[3]');
    const childTwo = parseCssPath('html > body > main > img:nth-child(2)', 'only-of-type');
    expect(second && childTwo && pathsAgree(second, childTwo)).toBe(false);
    const otherTag = parseXPath('/html[1]/body[1]/div[1]/img[1]');
    const main = parseCssPath('html > body > main > img', 'only-of-type');
    expect(otherTag && main && pathsAgree(otherTag, main)).toBe(false);
  });

  it('compares an id-anchored path from the element upwards', () => {
    const anchored = parseCssPath('#form > div:nth-child(2) > input', 'only-of-type');
    const full = parseXPath('/html[1]/body[1]/form[1]/div[2]/input[1]');
    expect(anchored?.anchored).toBe(true);
    expect(anchored && full && pathsAgree(anchored, full)).toBe(true);
  });

  it('reads axe xpaths that restart at a unique id', () => {
    const p = parseXPath("//form[@id='f']/input[2]");
    expect(p?.anchored).toBe(true);
    expect(p?.steps.at(-1)).toEqual({ tag: 'input', typeIndex: 2 });
  });

  it('compares opening tags regardless of attribute order, quoting and truncation', () => {
    const axe = parseOpeningTag('<img src="/a.png" width="40" height="40">');
    const ibm = parseOpeningTag('<img height="40" width="40" src="/a.png">');
    const other = parseOpeningTag('<img height="40" width="40" src="/b.png">');
    const cut = parseOpeningTag('<img src="/a.png" width=...');
    expect(openingTagsAgree(axe, ibm)).toBe(true);
    expect(openingTagsAgree(axe, other)).toBe(false);
    expect(openingTagsAgree(cut, ibm)).toBe(true);
  });

  it('turns IBM XPaths into CSS selectors', () => {
    expect(xpathToCss('/html[1]/body[1]/main[1]/img[2]')).toBe(
      'html > body > main:nth-of-type(1) > img:nth-of-type(2)',
    );
  });
});
