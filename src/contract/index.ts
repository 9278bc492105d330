export * from './finding.js';
export * from './raw-result.js';
export * from './page-scan.js';
export * from './discovery.js';
export * from './scan-api.js';
export * from './audit.js';
export * from './public.js';
export * from './auth.js';
