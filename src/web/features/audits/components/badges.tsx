import type { ReactNode } from 'react';
import type { LinkLocation } from '#contract/discovery.js';
import { cn } from '../../../lib/cn';

/** Text-and-background pairs chosen for AA contrast (at least 4.5:1). */
export const tones = {
  destructive: 'bg-red-100 text-red-900',
  neutral: 'bg-slate-100 text-slate-900',
  info: 'bg-brand-50 text-brand-800',
  ok: 'bg-emerald-100 text-emerald-900',
  active: 'bg-amber-100 text-amber-900',
} as const;

export function Pill({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <span className={cn('inline-block rounded px-2 py-0.5 text-xs font-semibold', tones[tone])}>
      {children}
    </span>
  );
}

/** Where a page ended in a multi-page scan; 'stopped' pages were never scanned. */
export type PageBadgeStatus = 'pending' | 'scanning' | 'complete' | 'error' | 'stopped';

const statusTones: Record<PageBadgeStatus, keyof typeof tones> = {
  pending: 'neutral',
  scanning: 'active',
  complete: 'ok',
  error: 'destructive',
  stopped: 'neutral',
};

export function StatusBadge({ status }: { status: PageBadgeStatus }) {
  return (
    <Pill tone={statusTones[status]}>
      <span className="sr-only">Status: </span>
      {status === 'stopped' ? 'not scanned' : status}
    </Pill>
  );
}

/** An axe rule's impact; critical and serious ones stand out. */
export function ImpactBadge({ impact }: { impact: string | null }) {
  return (
    <Pill tone={impact === 'critical' || impact === 'serious' ? 'destructive' : 'neutral'}>
      {impact ?? 'unknown'}
    </Pill>
  );
}

export function LocationBadge({ location }: { location: LinkLocation }) {
  return (
    <Pill tone="info">
      <span className="sr-only">Location: </span>
      {location}
    </Pill>
  );
}
