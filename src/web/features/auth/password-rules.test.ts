import { describe, expect, it } from 'vitest';
import { Password } from '#contract/auth.js';
import { meetsPasswordRules, passwordRules } from './password-rules';

describe('the sign-up password checklist', () => {
  it('names each rule a password misses', () => {
    const unmet = (p: string) => passwordRules.filter((r) => !r.test(p)).map((r) => r.id);
    expect(unmet('')).toEqual(['length', 'case', 'number', 'special']);
    expect(unmet('abcdefgh')).toEqual(['case', 'number', 'special']);
    expect(unmet('Abcdefg1')).toEqual(['special']);
    expect(unmet('Abcdef1!')).toEqual([]);
  });

  it.each(['Abcdef1!', 'short1A!', 'NoDigits!!', 'nocaps1!', 'Valid#Hash1', 'Valid$1aaaa'])(
    'agrees with the server schema on %s',
    (password) => {
      expect(meetsPasswordRules(password)).toBe(Password.safeParse(password).success);
    },
  );
});
