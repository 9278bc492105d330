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
