/** Spec §2: dates on the public status page read dd/MM/yyyy. */
export function ddMMyyyy(iso: string | null): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  const dd = String(date.getUTCDate()).padStart(2, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${date.getUTCFullYear()}`;
}

/** Spec §9: the public audit's score bands. */
export function complianceBand(score: number | null): {
  label: string;
  tone: 'ok' | 'warn' | 'bad';
} {
  if (score === null) return { label: 'Not yet scored', tone: 'warn' };
  if (score >= 90) return { label: 'Excellent Compliance', tone: 'ok' };
  if (score >= 70) return { label: 'Good Compliance', tone: 'warn' };
  return { label: 'Needs Improvement', tone: 'bad' };
}

/** Spec §3: any status the page does not know reads Unknown. */
export function statusLabel(status: string): string {
  const labels: Record<string, string> = {
    good_compliance: 'Good Compliance',
    needs_work: 'Needs Work',
    at_risk: 'At Risk',
    monitored: 'Monitored',
  };
  return labels[status] ?? 'Unknown';
}

export const toneClass = {
  ok: 'bg-emerald-100 text-emerald-900 border-emerald-700',
  warn: 'bg-amber-100 text-amber-900 border-amber-700',
  bad: 'bg-red-100 text-red-900 border-red-700',
} as const;
