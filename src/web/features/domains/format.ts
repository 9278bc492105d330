const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/** Dates as the dashboard writes them: '23 Nov 2026', never ambiguous day/month numbers. */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** Spec §9 score labels: Excellent 90+, Good 75+, Fair 60+, else Needs Work. */
export function scoreLabel(score: number): string {
  if (score >= 90) return 'Excellent';
  if (score >= 75) return 'Good';
  if (score >= 60) return 'Fair';
  return 'Needs Work';
}

/** Spec §9 card colours: green 80+, yellow 60+, else red (dark shades: readable on white). */
export function scoreColour(score: number): string {
  if (score >= 80) return 'text-ok';
  if (score >= 60) return 'text-warn';
  return 'text-bad';
}
