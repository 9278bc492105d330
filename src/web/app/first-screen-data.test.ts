import type { QueryClient } from '@tanstack/react-query';
import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { firstScreenMounted, readBeforeFirstScreen } from './first-screen-data';
import { createQueryClient } from './query-client';

/** Counts the answers a query's function gives, as a server counts requests. */
function counted(queryKey: string[], fail = false) {
  const calls = { count: 0 };
  const options = {
    queryKey,
    queryFn: async () => {
      calls.count++;
      if (fail) throw new Error('refused');
      return { read: calls.count };
    },
    // Read afresh on every mount, as the session and the subscription are.
    staleTime: 0,
  };
  return { calls, options };
}

/** Mounts an observer as a screen's useQuery does, and waits for any fetch it starts. */
async function mount(client: QueryClient, options: ReturnType<typeof counted>['options']) {
  const observer = new QueryObserver(client, options);
  const unsubscribe = observer.subscribe(() => undefined);
  await client
    .getQueryCache()
    .find({ queryKey: options.queryKey })
    ?.promise?.catch(() => null);
  unsubscribe();
}

describe('the first screen’s data', () => {
  it('is read once before the first screen and not again as it mounts; later screens read afresh', async () => {
    const client = createQueryClient();
    const session = counted(['session']);
    await readBeforeFirstScreen(client, [session.options]);
    expect(session.calls.count).toBe(1);
    await mount(client, session.options);
    expect(session.calls.count).toBe(1);

    firstScreenMounted();
    await mount(client, session.options);
    expect(session.calls.count).toBe(2);

    // A later screen's loader reads ahead too, but its screen checks afresh as it mounts.
    await readBeforeFirstScreen(client, [session.options]);
    expect(session.calls.count).toBe(3);
    await mount(client, session.options);
    expect(session.calls.count).toBe(4);
  });

  it('leaves a failed read to the screen, which asks again as it mounts', async () => {
    const client = createQueryClient();
    const refused = counted(['refused'], true);
    await expect(readBeforeFirstScreen(client, [refused.options])).resolves.toBeUndefined();
    expect(refused.calls.count).toBe(1);
    await mount(client, refused.options);
    expect(refused.calls.count).toBe(2);
  });
});
