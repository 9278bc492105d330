import type { Impact } from '#contract/finding.js';
import { enginesInWords } from '#contract/vocabulary.js';
import { scoreLabel, terminalScoreTone, type ScoreLabel } from './score';

/**
 * The five live-scan demo pages of spec §2 are one component (components/live-scan.tsx) with one
 * of these themes. A theme is the look and the choice of result panels; the scan, its states and
 * its texts are the same on every page. Each palette keeps WCAG AA contrast on its own background
 * (text 4.5:1, focus rings and bars 3:1), the dark and terminal ones included.
 */
/** "Five engines": the count of the engines a scan runs, from the contract's engine ids. */
const engineCount = enginesInWords();
const EngineCount = engineCount.charAt(0).toUpperCase() + engineCount.slice(1);

export type LiveScanThemeId = 'light' | 'real' | 'cinematic' | 'terminal' | 'professional';

export type ResultPanel =
  'score' | 'impact' | 'tests' | 'issues' | 'engineTabs' | 'aiSummary' | 'screenshots';

export interface LiveScanLook {
  /** The themed band under the site header. */
  page: string;
  eyebrow: string;
  title: string;
  muted: string;
  panel: string;
  panelTitle: string;
  label: string;
  input: string;
  primary: string;
  secondary: string;
  /** Focus ring colour for every control, visible on the theme's background. */
  focus: string;
  link: string;
  track: string;
  bar: string;
  log: string;
  badge: string;
  impact: Record<Impact, string>;
  success: string;
  dangerBox: string;
  dangerTitle: string;
  /** The colour of a score figure. */
  score(score: number): string;
}

export interface LiveScanTheme {
  id: LiveScanThemeId;
  pageTitle: string;
  eyebrow: string;
  title: string;
  intro: string;
  /** Result panels shown once the scan completes, in this order. */
  panels: ResultPanel[];
  /** The four-stage 'Accessibility Defense Grid' of the terminal page. */
  terminalStages: boolean;
  /** The terminal page's final button leads to the dashboard (spec §2). */
  dashboardButton: boolean;
  look: LiveScanLook;
}

const byLabel =
  (colours: Record<ScoreLabel, string>) =>
  (score: number): string =>
    colours[scoreLabel(score)];

const lightImpact: Record<Impact, string> = {
  critical: 'bg-red-100 text-red-900',
  serious: 'bg-orange-100 text-orange-900',
  moderate: 'bg-amber-100 text-amber-900',
  minor: 'bg-slate-200 text-slate-900',
};

const lightScore = byLabel({
  Excellent: 'text-ok',
  Good: 'text-brand-700',
  Fair: 'text-warn',
  'Needs Work': 'text-bad',
});

const light: LiveScanLook = {
  page: 'bg-slate-50 text-slate-900',
  eyebrow: 'text-brand-700',
  title: 'text-slate-900',
  muted: 'text-slate-700',
  panel: 'rounded-xl border border-slate-200 bg-white p-6 shadow-sm',
  panelTitle: 'text-slate-900',
  label: 'text-slate-900',
  input: '',
  primary: '',
  secondary: 'border border-slate-400 bg-white text-slate-900 hover:bg-slate-100',
  focus: 'focus-visible:outline-brand-600',
  link: 'text-brand-700 underline underline-offset-4 hover:text-brand-800',
  track: 'bg-slate-200',
  bar: 'bg-brand-600',
  log: 'rounded-md bg-slate-100 text-slate-800',
  badge: 'bg-slate-200 text-slate-900',
  impact: lightImpact,
  success: 'text-ok',
  dangerBox: 'rounded-lg border-2 border-bad bg-red-50 text-slate-900',
  dangerTitle: 'text-bad',
  score: lightScore,
};

export const liveScanThemes: Record<LiveScanThemeId, LiveScanTheme> = {
  light: {
    id: 'light',
    pageTitle: 'Live accessibility scan',
    eyebrow: 'Live scan',
    title: 'Live Accessibility Scan',
    intro:
      'Watch axe-core, Pa11y and IBM Equal Access check a page in a real browser, step by step.',
    panels: ['score', 'impact', 'issues', 'screenshots'],
    terminalStages: false,
    dashboardButton: false,
    look: light,
  },
  real: {
    id: 'real',
    pageTitle: 'Real accessibility scanner',
    eyebrow: 'Real scanner',
    title: 'Real Accessibility Scanner',
    intro: `${EngineCount}, one real page: every figure below comes from the scan running now, nothing is simulated.`,
    panels: ['score', 'tests', 'impact', 'issues', 'aiSummary'],
    terminalStages: false,
    dashboardButton: false,
    look: {
      ...light,
      page: 'bg-white text-slate-900',
      eyebrow: 'text-emerald-800',
      panel: 'rounded-lg border-2 border-slate-300 bg-white p-6',
      primary: 'bg-emerald-700 text-white hover:bg-emerald-800',
      focus: 'focus-visible:outline-emerald-800',
      link: 'text-emerald-800 underline underline-offset-4 hover:text-emerald-900',
      bar: 'bg-emerald-700',
    },
  },
  cinematic: {
    id: 'cinematic',
    pageTitle: 'AI accessibility intelligence',
    eyebrow: 'AI intelligence',
    title: 'AI Accessibility Intelligence',
    intro: `${EngineCount} read the page, then the findings are merged, scored and summed up in plain words.`,
    panels: ['score', 'aiSummary', 'screenshots', 'impact', 'issues'],
    terminalStages: false,
    dashboardButton: false,
    look: {
      page: 'bg-slate-950 text-slate-100',
      eyebrow: 'text-cyan-300',
      title: 'text-violet-100',
      muted: 'text-slate-300',
      panel: 'rounded-2xl border border-violet-400 bg-slate-900 p-6 shadow-lg shadow-violet-950',
      panelTitle: 'text-violet-100',
      label: 'text-slate-100',
      input: 'border-slate-400 bg-slate-900 text-slate-100 placeholder:text-slate-400',
      primary: 'bg-violet-300 text-slate-950 hover:bg-violet-200',
      secondary: 'border border-violet-300 bg-slate-900 text-violet-100 hover:bg-slate-800',
      focus: 'focus-visible:outline-cyan-300',
      link: 'text-cyan-300 underline underline-offset-4 hover:text-cyan-200',
      track: 'bg-slate-700',
      bar: 'bg-cyan-300',
      log: 'rounded-md border border-slate-700 bg-slate-950 text-cyan-100',
      badge: 'bg-slate-800 text-slate-100',
      impact: {
        critical: 'bg-red-950 text-red-200',
        serious: 'bg-orange-950 text-orange-200',
        moderate: 'bg-amber-950 text-amber-200',
        minor: 'bg-slate-800 text-slate-200',
      },
      success: 'text-emerald-300',
      dangerBox: 'rounded-2xl border-2 border-red-400 bg-red-950 text-red-50',
      dangerTitle: 'text-red-200',
      score: byLabel({
        Excellent: 'text-emerald-300',
        Good: 'text-cyan-300',
        Fair: 'text-amber-300',
        'Needs Work': 'text-red-300',
      }),
    },
  },
  terminal: {
    id: 'terminal',
    pageTitle: 'Accessibility Defense Grid',
    eyebrow: '> premium scan',
    title: 'Accessibility Defense Grid',
    intro:
      'Five stages, one target: axe-core, Pa11y, IBM Equal Access, our keyboard and link checks, then AI synthesis.',
    panels: ['score', 'tests', 'impact', 'issues'],
    terminalStages: true,
    dashboardButton: true,
    look: {
      page: 'bg-black font-mono text-green-400',
      eyebrow: 'text-green-500',
      title: 'uppercase tracking-widest text-green-300',
      muted: 'text-green-500',
      panel: 'rounded-none border border-green-700 bg-black p-5',
      panelTitle: 'uppercase tracking-wider text-green-300',
      label: 'text-green-300',
      input:
        'rounded-none border-green-600 bg-black font-mono text-green-300 placeholder:text-green-600',
      primary: 'rounded-none bg-green-400 font-mono text-black hover:bg-green-300',
      secondary:
        'rounded-none border border-green-400 bg-black font-mono text-green-400 hover:bg-green-950',
      focus: 'focus-visible:outline-amber-300',
      link: 'text-green-300 underline underline-offset-4 hover:text-green-200',
      track: 'bg-green-950',
      bar: 'bg-green-400',
      log: 'border border-green-800 bg-black text-green-400',
      badge: 'border border-green-700 text-green-300',
      impact: {
        critical: 'border border-red-400 text-red-400',
        serious: 'border border-orange-300 text-orange-300',
        moderate: 'border border-yellow-300 text-yellow-300',
        minor: 'border border-green-300 text-green-300',
      },
      success: 'text-green-300',
      dangerBox: 'border-2 border-red-500 bg-black text-red-300',
      dangerTitle: 'uppercase tracking-wider text-red-400',
      score: (score) =>
        ({ high: 'text-green-400', middle: 'text-yellow-300', low: 'text-red-400' })[
          terminalScoreTone(score)
        ],
    },
  },
  professional: {
    id: 'professional',
    pageTitle: 'Multi-engine accessibility analysis',
    eyebrow: 'Professional scan',
    title: 'Multi-Engine Accessibility Analysis',
    intro: `One page, ${engineCount}: merged results with a score, and what each engine found on its own.`,
    panels: ['score', 'tests', 'impact', 'engineTabs', 'issues', 'screenshots'],
    terminalStages: false,
    dashboardButton: false,
    look: {
      ...light,
      page: 'bg-slate-100 text-slate-900',
      eyebrow: 'text-indigo-800',
      panel: 'rounded-lg border border-slate-300 bg-white p-6 shadow',
      primary: 'bg-slate-900 text-white hover:bg-slate-700',
      focus: 'focus-visible:outline-indigo-700',
      link: 'text-indigo-800 underline underline-offset-4 hover:text-indigo-950',
      bar: 'bg-indigo-700',
    },
  },
};
