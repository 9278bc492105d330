import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  hasUnfinishedScan,
  retryScanList,
  scanListQueryOptions,
  scanListRefetchInterval,
} from './list-scans';

const row = (status: 'pending' | 'running' | 'completed' | 'failed' | 'aborted') => ({
  id: '00000000-0000-4000-8000-000000000000',
  url: 'https://example.com/',
  domain: 'example.com',
  createdAt: '2026-11-24T06:00:00.000Z',
  accessibilityScore: null,
  status,
  totalIssues: 0,
  violations: { critical: 0, serious: 0, moderate: 0, minor: 0 },
});

describe('the scan list query (spec §7)', () => {
  it('is stale after 30 s and read again every 60 s once every scan has ended', () => {
    const options = scanListQueryOptions();
    expect(options.staleTime).toBe(30_000);
    expect(scanListRefetchInterval({ scans: [row('completed'), row('failed')] })).toBe(60_000);
    expect(scanListRefetchInterval(undefined)).toBe(60_000);
  });

  it('is read again every 2 s while a scan is pending or running', () => {
    expect(scanListRefetchInterval({ scans: [row('completed'), row('pending')] })).toBe(2000);
    expect(scanListRefetchInterval({ scans: [row('running')] })).toBe(2000);
  });

  it('retries up to 3 times, never on a 402', () => {
    const unavailable = new ApiError(503, '', 'Service Unavailable');
    expect([0, 1, 2, 3].map((n) => retryScanList(n, unavailable))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(retryScanList(0, new ApiError(402, '{"message":"Pay"}', 'Payment Required'))).toBe(
      false,
    );
  });
});

describe('an unfinished scan', () => {
  it('is a pending or running one', () => {
    expect(hasUnfinishedScan({ scans: [row('completed'), row('pending')] })).toBe(true);
    expect(hasUnfinishedScan({ scans: [row('completed'), row('failed'), row('aborted')] })).toBe(
      false,
    );
    expect(hasUnfinishedScan({ scans: [] })).toBe(false);
    expect(hasUnfinishedScan(undefined)).toBe(false);
  });
});
