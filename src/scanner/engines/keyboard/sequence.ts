/**
 * Reading the walk's focus sequence: ids of the focused element before each Tab press and after
 * the last one, -1 where nothing in the page had focus (the browser's own controls, between the
 * end of the page and its start again).
 */
export type SequenceState =
  | { kind: 'continue' }
  /** Focus went round the whole page: out of it and back to an element already seen. */
  | { kind: 'complete' }
  /** Focus came back to an element without ever leaving the page: a possible trap. */
  | { kind: 'loop'; ids: number[] };

/**
 * Where a walk stands. `opaque` are ids of frames, media and the like (focus moves inside them
 * where the page cannot follow, so they never make a loop); `candidates` are the elements the DOM suggests Tab should reach: a loop
 * through all of them is the page's own order wrapping around, not a trap.
 */
export function readSequence(
  sequence: readonly number[],
  opaque: ReadonlySet<number>,
  candidates: readonly number[],
): SequenceState {
  const lastSeen = new Map<number, number>();
  let lastOut = -1;
  let outs = 0;
  for (const [index, id] of sequence.entries()) {
    if (id < 0) {
      lastOut = index;
      outs += 1;
      continue;
    }
    if (opaque.has(id)) continue;
    const seen = lastSeen.get(id);
    if (seen !== undefined) {
      if (lastOut > seen) return { kind: 'complete' };
      const ids = [...new Set(sequence.slice(seen, index))].filter((x) => x >= 0);
      const loop = new Set(ids);
      if (candidates.every((candidate) => loop.has(candidate))) return { kind: 'complete' };
      return { kind: 'loop', ids };
    }
    lastSeen.set(id, index);
  }
  // Nothing focusable: Tab only ever leaves the page.
  if (lastSeen.size === 0 && outs >= 3) return { kind: 'complete' };
  return { kind: 'continue' };
}

/** The elements in the order Tab reached them, each once. */
export function reachedOrder(sequence: readonly number[]): number[] {
  return [...new Set(sequence.filter((id) => id >= 0))];
}
