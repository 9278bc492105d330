import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChromiumNotFoundError,
  chromiumCandidates,
  findChromium,
  fullChromiumCandidates,
  headlessShellCandidates,
  isHeadlessShell,
} from './chromium-path.js';

describe('findChromium', () => {
  let dir: string;
  let shell: string;
  let full: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chromium-path-'));
    shell = join(dir, 'chromium-headless-shell');
    full = join(dir, 'chromium');
    for (const path of [shell, full]) {
      await writeFile(path, '#!/bin/sh\n');
      await chmod(path, 0o755);
    }
    await mkdir(join(dir, 'a-folder'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('uses an override that exists, even when a headless shell is installed', () => {
    expect(findChromium(full, { candidates: [shell, full] })).toBe(full);
  });

  it('refuses an override that is not an executable instead of picking another browser', () => {
    expect(() => findChromium('/nowhere/chromium')).toThrow(ChromiumNotFoundError);
    expect(() => findChromium('/nowhere/chromium')).toThrow('/nowhere/chromium');
    expect(() => findChromium(join(dir, 'a-folder'))).toThrow(ChromiumNotFoundError);
  });

  it('takes the first installed candidate and falls back past missing ones', () => {
    expect(findChromium('', { candidates: [shell, full] })).toBe(shell);
    expect(findChromium('', { candidates: [join(dir, 'missing-shell'), full] })).toBe(full);
    expect(() => findChromium('', { candidates: [join(dir, 'missing')] })).toThrow(
      /No Chromium found.*chromium-headless-shell/,
    );
  });

  it('looks for the headless shell before any full browser, raw binaries before launchers', () => {
    const shellLast = Math.max(
      ...headlessShellCandidates.map((path) => chromiumCandidates.indexOf(path)),
    );
    const fullFirst = Math.min(
      ...fullChromiumCandidates.map((path) => chromiumCandidates.indexOf(path)),
    );
    expect(shellLast).toBeLessThan(fullFirst);
    expect(chromiumCandidates.indexOf('/usr/lib/chromium/chromium-headless-shell')).toBeLessThan(
      chromiumCandidates.indexOf('/usr/bin/chromium-headless-shell'),
    );
    expect(chromiumCandidates.indexOf('/usr/lib/chromium/chromium')).toBeLessThan(
      chromiumCandidates.indexOf('/usr/bin/chromium'),
    );
  });

  // CI (.ci/run) installs Debian's chromium and chromium-headless-shell.
  it('picks the installed headless shell for scans and full Chromium for a visitor', () => {
    expect(findChromium('')).toBe('/usr/lib/chromium/chromium-headless-shell');
    expect(findChromium('', { fullBrowser: true })).toBe('/usr/lib/chromium/chromium');
  });
});

describe('isHeadlessShell', () => {
  it('knows the shells of Debian, Chrome for Testing and Chromium builds by name', () => {
    expect(isHeadlessShell('/usr/lib/chromium/chromium-headless-shell')).toBe(true);
    expect(isHeadlessShell('/usr/bin/chromium-headless-shell')).toBe(true);
    expect(isHeadlessShell('/opt/chrome-headless-shell-linux64/chrome-headless-shell')).toBe(true);
    expect(isHeadlessShell('/src/out/Release/headless_shell')).toBe(true);
    expect(isHeadlessShell('/usr/lib/chromium/chromium')).toBe(false);
    expect(isHeadlessShell('/headless-shell-builds/chrome')).toBe(false);
  });
});
