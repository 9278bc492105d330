import { describe, expect, it } from 'vitest';
import { ruleKeyTitle } from '../../analysis/rule-keys.js';
import { ibmKeys } from './rules.js';

describe('ibmKeys', () => {
  it('keys an accessible-name failure by the role it is about', () => {
    const heading = ibmKeys('aria_accessiblename_exists', 'fail_no_accessible_name', {
      messageArgs: ['h2', 'heading'],
    });
    expect(heading).toEqual(['ffd0e9']);
    const header = ibmKeys('aria_accessiblename_exists', 'fail_no_accessible_name', {
      messageArgs: ['th', 'columnheader'],
    });
    expect(ruleKeyTitle(header[0]!)).toBe('Table header cell has an accessible name');
    // Only the image reason is the image-name ACT rule.
    expect(ibmKeys('aria_accessiblename_exists', 'fail_no_accessible_name_image')).toEqual([
      '23a2a8',
    ]);
    expect(ibmKeys('aria_accessiblename_exists', 'fail_no_accessible_name')).toEqual([
      'ibm:aria_accessiblename_exists',
    ]);
  });

  it('keys an unnamed widget as a button, form field, menu item or other control', () => {
    const keys = (role: string | null, tag: string) =>
      ibmKeys('aria_widget_labelled', 'Fail_1', { messageArgs: [role], tag })[0];
    expect(keys('menuitem', 'button')).toBe('m6b1q3');
    expect(keys(null, 'button')).toBe('97a4e1');
    expect(keys(null, 'select')).toBe('e086e5');
    expect(keys('textbox', 'div')).toBe('e086e5');
    expect(keys('doc-biblioref', 'a')).toBe('control-name');
  });

  it('keeps a reason W3C calls inapplicable off the ACT rule', () => {
    // xml:lang is not the lang attribute de46e4 checks.
    expect(ibmKeys('element_lang_valid', 'Fail_3')).toEqual(['ibm:element_lang_valid']);
    expect(ibmKeys('element_lang_valid', 'Fail_1')).toEqual(['de46e4']);
  });

  it('names a missing main landmark or skip link as its own check, not a skip-link target', () => {
    expect(ibmKeys('skip_main_exists', 'Fail_1')).toEqual(['main-or-skip-link']);
  });
});
