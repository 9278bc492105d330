/** Spec §9: "examples shown 2 per error group". */
export const examplesPerGroup = 2;

/**
 * The examples to show for a group of findings and how many of its `count` are left unshown,
 * for the line '... and N more'.
 */
export function examplesOf<T>(
  examples: readonly T[],
  count: number,
  limit = examplesPerGroup,
): { shown: T[]; more: number } {
  const shown = examples.slice(0, limit);
  return { shown, more: Math.max(0, Math.max(count, examples.length) - shown.length) };
}

export const moreText = (more: number) => `... and ${more} more`;
