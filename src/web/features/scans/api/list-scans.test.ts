import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { retryScanList, scanListQueryOptions } from './list-scans';

describe('the scan list query (spec §7)', () => {
  it('is stale after 30 s and read again every 60 s', () => {
    const options = scanListQueryOptions();
    expect(options.staleTime).toBe(30_000);
    expect(options.refetchInterval).toBe(60_000);
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
