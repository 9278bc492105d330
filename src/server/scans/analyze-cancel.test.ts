import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  slowPage,
  startTestService,
  type TestService,
} from '../../../test/support/service.js';
import { scans } from '#db/schema/index.js';
import { analyze, rawScan, type ScanServiceDeps } from './service.js';

/** `POST /api/analyze` and `/api/raw-scan` answer with the finished scan; a caller who leaves stops it. */

let service: TestService;
let deps: ScanServiceDeps;

beforeAll(async () => {
  service = await startTestService({ routes: { '/slow.html': slowPage(20_000) } });
  deps = { db: service.database.db, boss: service.boss, allowPrivateTargets: true, pollMs: 50 };
});
afterAll(() => service?.close());

const statusOf = async (id: string) =>
  (
    await service.database.db.select({ status: scans.status }).from(scans).where(eq(scans.id, id))
  )[0]?.status;

describe.each([
  ['analyze', analyze],
  ['raw-scan', rawScan],
] as const)('%s when the caller goes away', (name, call) => {
  it('stops the scan it started', async () => {
    const caller = { clientId: `client-${name}`, ip: '10.2.0.1' };
    const controller = new AbortController();
    const answer = call(deps, caller, `${service.site.url}/slow.html`, controller.signal);
    const id = await eventually(async () => {
      const [row] = await service.database.db
        .select({ id: scans.id, status: scans.status })
        .from(scans)
        .where(eq(scans.visitorId, caller.clientId));
      return row?.status === 'running' ? row.id : undefined;
    });
    controller.abort();
    await expect(answer).rejects.toThrow();
    expect(await statusOf(id)).toBe('aborted');
  });
});
