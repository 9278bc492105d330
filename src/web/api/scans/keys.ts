/**
 * The query keys of one scan's resources. A scan is read by several features (the scan page,
 * the raw results page, the five live-scan demos), so its keys live here, once: two screens
 * following the same scan share one cache entry and one poll.
 */
export const scanKeys = {
  progress: (scanId: string) => ['scan', scanId, 'progress'] as const,
  results: (scanId: string) => ['scan', scanId, 'results'] as const,
};
