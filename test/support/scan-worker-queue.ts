import type { CreateQueueOptions } from '../../src/jobs/boss.js';

/**
 * Queue settings for worker-death tests: a dead worker's job expires after 4 s (not 5 minutes)
 * and maintenance looks every second, so the retry comes within seconds.
 */
export const fastExpiry: CreateQueueOptions = {
  maintenanceIntervalSeconds: 1,
  retry: { 'scan-page': { retryDelay: 1, expireInSeconds: 4 } },
};
