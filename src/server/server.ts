import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '#config';
import { closeOnSignals, startRuntime } from '#runtime';
import { buildApp } from './app.js';

/**
 * `npm start`: the HTTP service with an in-process scan worker, on the embedded database in
 * ./data or on DATABASE_URL. Migrations run when the database opens.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, { scan: true });
  const app = await buildApp(config, {
    database: runtime.database,
    boss: runtime.boss,
    payments: runtime.payments,
    ...(runtime.pool ? { pool: runtime.pool } : {}),
    webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)),
  });
  closeOnSignals(async () => {
    await app.close();
    await runtime.close();
  });
  await app.listen({ port: config.port, host: config.host ?? '0.0.0.0' });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
