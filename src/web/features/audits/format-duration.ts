/** Spec §2: under 1000 ms in ms, otherwise seconds with one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
