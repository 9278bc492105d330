import { passwordSpecialCharacters } from '#contract/auth.js';

/** The live checklist of the sign-up form (spec §2), in the order it is shown. */
export const passwordRules = [
  { id: 'length', label: 'At least 8 characters', test: (p: string) => p.length >= 8 },
  {
    id: 'case',
    label: 'Upper and lower case letters',
    test: (p: string) => /[a-z]/.test(p) && /[A-Z]/.test(p),
  },
  { id: 'number', label: 'At least one number', test: (p: string) => /\d/.test(p) },
  {
    id: 'special',
    label: `A special character (${passwordSpecialCharacters})`,
    test: (p: string) => /[@$!%*?&]/.test(p),
  },
] as const;

export function meetsPasswordRules(password: string): boolean {
  return passwordRules.every((rule) => rule.test(password));
}
