import { defineConfig } from 'drizzle-kit';

/** Used by `npm run db:generate` and `npm run db:check`; the app never reads it. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
  strict: true,
  verbose: true,
});
