import { describe, expect, it } from 'vitest';
import { hasUnfinishedScan } from './list-scans';

const row = (status: 'pending' | 'running' | 'completed' | 'failed' | 'aborted') => ({
  id: '00000000-0000-4000-8000-000000000000',
  url: 'https://example.com/',
  domain: 'example.com',
  createdAt: '2026-11-24T06:00:00.000Z',
  accessibilityScore: null,
  status,
  totalIssues: 0,
});

describe('the scan list is read again', () => {
  it('while a scan is pending or running', () => {
    expect(hasUnfinishedScan({ scans: [row('completed'), row('pending')] })).toBe(true);
    expect(hasUnfinishedScan({ scans: [row('running')] })).toBe(true);
  });

  it('not once every scan has ended, nor before the first answer', () => {
    expect(hasUnfinishedScan({ scans: [row('completed'), row('failed'), row('aborted')] })).toBe(
      false,
    );
    expect(hasUnfinishedScan({ scans: [] })).toBe(false);
    expect(hasUnfinishedScan(undefined)).toBe(false);
  });
});
