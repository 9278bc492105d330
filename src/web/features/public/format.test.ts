import { describe, expect, it } from 'vitest';
import { complianceBand, ddMMyyyy, statusLabel } from './format';

describe('public page formats', () => {
  it('writes dates as dd/MM/yyyy', () => {
    expect(ddMMyyyy('2026-03-07T23:10:00.000Z')).toBe('07/03/2026');
    expect(ddMMyyyy(null)).toBe('–');
    expect(ddMMyyyy('not a date')).toBe('–');
  });

  it.each([
    [100, 'Excellent Compliance'],
    [90, 'Excellent Compliance'],
    [89, 'Good Compliance'],
    [70, 'Good Compliance'],
    [69, 'Needs Improvement'],
  ])('score %i is %s', (score, label) => {
    expect(complianceBand(score).label).toBe(label);
  });

  it('names unknown statuses Unknown', () => {
    expect(statusLabel('needs_work')).toBe('Needs Work');
    expect(statusLabel('suspended')).toBe('Unknown');
  });
});
