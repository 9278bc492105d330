/** The whole data model; drizzle-kit reads this file to generate migrations. */
export * from './accounts.js';
export * from './organisations.js';
export * from './email.js';
export * from './scans.js';
export * from './audits.js';
export * from './issues.js';
export * from './artifacts.js';
export * from './billing.js';
export * from './domains.js';
export * from './complaints.js';
export * from './share-links.js';
export * from './triage.js';
