import type { CreateQueueOptions } from '#jobs/boss.js';

/**
 * Queue settings for worker-death tests: a dead worker's lease runs out after 2 s (not 20 s) and
 * maintenance looks every second, so the retry comes within seconds. A live worker keeps renewing
 * its lease, so its long scans are not taken from it.
 */
export const fastExpiry: CreateQueueOptions = {
  maintenanceIntervalSeconds: 1,
  leaseSeconds: 2,
  retry: { 'scan-page': { retryDelay: 1 } },
};
