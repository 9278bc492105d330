/**
 * Pages a site audit covers at most by default (MONITOR_MAX_PAGES), stated on the pricing page.
 * Plain data without zod, so the landing page can state it without loading the schemas
 * (site-monitoring.ts re-exports it).
 */
export const defaultMonitorPageBudget = 50;
