import { accessSync, constants, statSync } from 'node:fs';

/**
 * Where Debian, Ubuntu and Google packages put a Chromium-based browser. The raw Debian binary
 * comes first: the `/usr/bin/chromium` launcher adds extension flags and prints a shell warning.
 */
export const chromiumCandidates = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium-browser/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
] as const;

export class ChromiumNotFoundError extends Error {
  override name = 'ChromiumNotFoundError';
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
 * The browser binary to drive. An explicit override (default: the `CHROMIUM_PATH` environment
 * variable, the one setting the scanner library reads itself so the CLI works without a config
 * layer) must exist; it never silently falls back to another browser.
 */
export function findChromium(override: string | undefined = process.env.CHROMIUM_PATH): string {
  if (override) {
    if (isExecutable(override)) return override;
    throw new ChromiumNotFoundError(
      `CHROMIUM_PATH is set to "${override}", which is not an executable file.`,
    );
  }
  const found = chromiumCandidates.find(isExecutable);
  if (found) return found;
  throw new ChromiumNotFoundError(
    `No Chromium found (looked in ${chromiumCandidates.join(', ')}). ` +
      'Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH to the browser binary.',
  );
}
