import { accessSync, constants, statSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * Where Debian's `chromium-headless-shell` package puts the old headless shell: Chromium's
 * rendering engine without the browser UI. A scanner only needs the page, and the shell loads and
 * checks one with about half the memory and far less CPU than `chromium --headless`
 * (docs/decisions/0008-headless-shell.md). The raw binary comes before the
 * `/usr/bin` launcher script, which only adds a shell in between.
 */
export const headlessShellCandidates = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
] as const;

/**
 * Where Debian, Ubuntu and Google packages put a full Chromium-based browser: the fallback when
 * no headless shell is installed, and the browser that stands for a visitor in end-to-end tests.
 * The raw Debian binary comes first: the `/usr/bin/chromium` launcher adds extension flags and
 * prints a shell warning.
 */
export const fullChromiumCandidates = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium-browser/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
] as const;

/** Every place the scanner looks, in order of preference. */
export const chromiumCandidates = [...headlessShellCandidates, ...fullChromiumCandidates] as const;

export class ChromiumNotFoundError extends Error {
  override name = 'ChromiumNotFoundError';
}

export interface FindChromiumOptions {
  /**
   * Skip the headless shell: for a browser that stands for a person's browser (the visitor in
   * end-to-end tests), not for the scanner.
   */
  fullBrowser?: boolean;
  /** Where to look instead of the Debian, Ubuntu and Google locations above. */
  candidates?: readonly string[];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    // Directories pass the X_OK check too.
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The browser binary to drive: the headless shell when it is installed, else a full Chromium. An
 * explicit override (default: the `CHROMIUM_PATH` environment variable, the one setting the
 * scanner library reads itself so the CLI works without a config layer) must exist; it never
 * silently falls back to another browser.
 */
export function findChromium(
  override: string | undefined = process.env.CHROMIUM_PATH,
  options: FindChromiumOptions = {},
): string {
  if (override) {
    if (isExecutable(override)) return override;
    throw new ChromiumNotFoundError(
      `CHROMIUM_PATH is set to "${override}", which is not an executable file.`,
    );
  }
  const candidates =
    options.candidates ?? (options.fullBrowser ? fullChromiumCandidates : chromiumCandidates);
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new ChromiumNotFoundError(
    `No Chromium found (looked in ${candidates.join(', ')}). ` +
      'Install it (Debian: apt-get install chromium-headless-shell, or chromium) ' +
      'or set CHROMIUM_PATH to the browser binary.',
  );
}

/**
 * Whether a binary is a headless shell (Debian's `chromium-headless-shell`, Chrome for Testing's
 * `chrome-headless-shell`, a build's `headless_shell`), which puppeteer launches with
 * `headless: 'shell'` (the plain `--headless` switch) instead of `--headless=new`.
 */
export function isHeadlessShell(executablePath: string): boolean {
  return /headless[-_]shell/.test(basename(executablePath));
}
