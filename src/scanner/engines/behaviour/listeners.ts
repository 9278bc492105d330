import type { BehaviourSession } from './session.js';

/**
 * The event types with listeners on a page object, through CDP (DOMDebugger.getEventListeners):
 * `expression` evaluates to the object (window, document, or a probe element); with `ancestors`,
 * listeners on its ancestors count too (event delegation).
 */
export async function listenerTypes(
  session: BehaviourSession,
  expression: string,
  ancestors = 0,
): Promise<Set<string>> {
  const types = new Set<string>();
  const { result } = await session.cdp.send('Runtime.evaluate', { expression });
  let objectId = result.objectId;
  for (let level = 0; objectId && level <= ancestors; level += 1) {
    const { listeners } = await session.cdp.send('DOMDebugger.getEventListeners', { objectId });
    for (const listener of listeners) types.add(listener.type);
    const parent = await session.cdp.send('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration:
        'function () { return this.parentElement || (this === document.documentElement ? document : null); }',
    });
    await session.cdp.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
    objectId = parent.result.objectId;
  }
  if (objectId)
    await session.cdp.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
  return types;
}

/**
 * The event types with a listener anywhere on the page: the window, and the document with every
 * node below it, shadow roots included (one DOMDebugger.getEventListeners call over the whole
 * tree). A topic whose events have no listener anywhere cannot make the page react, so it is
 * skipped instead of tried control by control: on a page without scripts that is most of the
 * engine's time.
 */
export async function pageListenerTypes(session: BehaviourSession): Promise<Set<string>> {
  const types = await listenerTypes(session, 'window');
  // The guard's own submit listener sits on the window (safety.ts); a page's submit listeners
  // sit on its forms or the document, counted below.
  types.delete('submit');
  const { result } = await session.cdp.send('Runtime.evaluate', { expression: 'document' });
  if (!result.objectId) return types;
  try {
    const { listeners } = await session.cdp.send('DOMDebugger.getEventListeners', {
      objectId: result.objectId,
      depth: -1,
      pierce: true,
    });
    for (const listener of listeners) types.add(listener.type);
  } finally {
    await session.cdp.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {
      // Released with the session anyway.
    });
  }
  return types;
}

/** True when the page listens for at least one of `types` anywhere (see pageListenerTypes). */
export async function pageListensTo(
  session: BehaviourSession,
  types: readonly string[],
): Promise<boolean> {
  const found = await pageListenerTypes(session);
  return types.some((type) => found.has(type));
}
