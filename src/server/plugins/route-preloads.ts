import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isOwnersReport, type ReportResponse } from '#contract/scan-api.js';

/**
 * The landing page and the heaviest signed-in screens, as the web app's router (src/web/app/router.tsx) builds them:
 * the modules of their route chunks (keys of Vite's manifest) and the API answers they ask for
 * first. Without this, a phone learns of both only after the entry script has downloaded and run
 * (issue 27: the dashboard and domain page lost most of their Lighthouse score to that chain).
 * A screen missing here still works; it only loads as before.
 */
interface RoutePreload {
  /** The page's path (no query), its parameters as groups. */
  pattern: RegExp;
  /** Manifest keys (paths under src/web) of the modules the router loads for it. */
  modules: string[];
  /** API paths the screen and its frame request on start, with the signed-in account's cookie. */
  data: (params: string[]) => string[];
  /**
   * API paths the screen requests on start whoever asks (a shared report is read without an
   * account): preloaded with or without a session cookie.
   */
  publicData?: (params: string[]) => string[];
  /** Its answers are written into the page or left to it, never preloaded with a link. */
  embedOnly?: boolean;
  /**
   * Answers the screen asks for once an earlier answer has rendered it, named from that answer
   * (signed in only); written into the page when the API gives them, never preloaded.
   */
  followUps?: (answers: Record<string, unknown>) => string[];
}

/** What the signed-in dashboard frame asks for on every screen (session gate, sidebar, switcher). */
const dashboardFrameData = ['/api/session', '/api/subscription-status', '/api/organisations'];

/** What the public pages' header asks for (signed in or not: "Log in" or the account's menu). */
const publicFrameData = ['/api/session'];

const routes: RoutePreload[] = [
  {
    pattern: /^\/$/,
    modules: ['features/landing/components/landing-page.tsx'],
    data: () => [],
    publicData: () => publicFrameData,
  },
  {
    pattern: /^\/report\/([^/]+)\/?$/,
    modules: ['features/report/components/report-page.tsx'],
    data: () => [],
    publicData: ([segment = '']) => [
      ...publicFrameData,
      `/api/report/${encodeURIComponent(safeDecode(segment))}`,
    ],
    // An owner's report lists each issue's triage state and who it may be assigned to
    // (report-page.tsx, OwnersIssueExplorer): asked for after the report has rendered.
    followUps: (answers) => {
      // A 200 answer of GET /api/report/{id} (only those are written into the page).
      const report = Object.entries(answers).find(([path]) =>
        path.startsWith('/api/report/'),
      )?.[1] as ReportResponse | undefined;
      if (!report || !isOwnersReport(report)) return [];
      return [
        `/api/domains/${encodeURIComponent(report.domain)}/triage`,
        '/api/organisation/members',
      ];
    },
  },
  {
    pattern: /^\/status\/([^/]+)\/?$/,
    modules: ['features/public/components/status-page.tsx'],
    data: () => [],
    publicData: ([segment = '']) => [
      ...publicFrameData,
      `/api/public/status/${encodeURIComponent(safeDecode(segment))}`,
    ],
    // The page asks for its answer revalidated (`cache: no-cache`), which a preloaded answer
    // would not satisfy: it is written into the page or left to the page, never preloaded.
    embedOnly: true,
  },
  {
    pattern: /^\/app\/dashboard\/?$/,
    modules: ['app/dashboard-frame.tsx', 'app/overview-screen.tsx'],
    data: () => [...dashboardFrameData, '/api/account/settings', '/api/dashboard', '/api/scans'],
  },
  {
    pattern: /^\/app\/dashboard\/domains\/([^/]+)\/?$/,
    modules: [
      'app/dashboard-frame.tsx',
      'features/dashboard/components/plan-gate.tsx',
      'features/dashboard/components/domain-page.tsx',
    ],
    data: ([segment = '']) => {
      // The router's parameter is the decoded segment; the screen encodes it again.
      const domain = encodeURIComponent(safeDecode(segment));
      return [
        ...dashboardFrameData,
        `/api/dashboard/domains/${domain}`,
        // The site audits panel's list, asked for once the domain's answer has rendered it: named
        // here, it arrives with the domain's answer instead of a round trip after it.
        `/api/domains/${domain}/monitoring`,
      ];
    },
  },
];

/** One entry of Vite's build manifest (build.manifest), as much of it as is used here. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/** Reads `.vite/manifest.json` beside the built app; undefined when the build has none. */
export async function readManifest(root: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(join(root, '.vite/manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** What a requested screen needs first: its chunks' preload links and its API answers' paths. */
export interface ScreenPreloads {
  /** modulepreload links for each chunk the screen's modules import (index.html's left out). */
  moduleLinks: string[];
  /** The API paths the screen and its frame ask for on start (signed-in ones with a cookie). */
  answers: string[];
  /** Whether an answer not written into the page may be preloaded with a link instead. */
  linkable: boolean;
  /** More answers named by the first ones (signed in only), to write into the page too. */
  followUps: (answers: Record<string, unknown>) => string[];
}

/** The preloads of the screen at `path`; undefined for a page not listed here. */
export function screenPreloads(
  manifest: Manifest,
  path: string,
  options: { signedIn: boolean },
): ScreenPreloads | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    return {
      moduleLinks: chunkFiles(manifest, route.modules).map(
        (file) => `<link rel="modulepreload" crossorigin href="/${escape(file)}">`,
      ),
      answers: [
        ...(route.publicData?.(match.slice(1)) ?? []),
        ...(options.signedIn ? route.data(match.slice(1)) : []),
      ],
      linkable: !route.embedOnly,
      followUps: (answers) => (options.signedIn ? (route.followUps?.(answers) ?? []) : []),
    };
  }
  return undefined;
}

/**
 * A credentialed fetch preload for an API answer (the app's client sends cookies with
 * `credentials: 'include'`, which use-credentials matches).
 */
export function answerPreloadLink(path: string): string {
  return `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escape(path)}">`;
}

/**
 * The `<link>` tags that let the browser fetch a screen's chunks and first answers while it is
 * still loading the entry script; empty for any other page.
 */
export function preloadLinks(
  manifest: Manifest,
  path: string,
  options: { signedIn: boolean },
): string {
  const screen = screenPreloads(manifest, path, options);
  if (!screen) return '';
  const answers = screen.linkable ? screen.answers : [];
  return [...screen.moduleLinks, ...answers.map(answerPreloadLink)].join('\n    ');
}

/** The JS files of the given modules and of every module they import statically. */
function chunkFiles(manifest: Manifest, modules: string[]): string[] {
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) collect(imported, into);
  };
  // index.html already names the entry and what it imports.
  const named = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) collect(key, named);
  const needed = new Set<string>();
  for (const module of modules) collect(module, needed);
  return [...needed].filter((key) => !named.has(key)).map((key) => manifest[key]!.file);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Attribute-safe text (the paths come from the request). */
function escape(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
