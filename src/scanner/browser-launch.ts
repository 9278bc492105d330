import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';
import { findChromium, isHeadlessShell } from './chromium-path.js';
import { startEgressProxy } from './net/egress-proxy.js';

/**
 * Flags proven on this stack (notes/stack-prototype.md §1). Headless mode itself comes from
 * puppeteer's `headless: true`. No sandbox because scanners usually run as root in containers;
 * the egress proxies (net/egress-proxy.ts), not the sandbox, keep scanned pages away from private
 * networks.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--mute-audio',
  '--no-default-browser-check',
  // A tab is reset by going to about:blank; the back-forward cache would keep the scanned page
  // alive as a whole renderer (measured: 4 tabs over 50 pages peaked at 2.0 GB with it, 1.4 without).
  // Puppeteer merges this with its own --disable-features defaults.
  '--disable-features=BackForwardCache',
  // WebRTC sends UDP (STUN, TURN) straight from the network service, around any proxy, so a
  // scanned page could reach any UDP port and read a STUN answer back as an ICE candidate. This
  // policy leaves WebRTC only TCP through the proxy (docs/decisions/0005-scan-egress-proxy.md).
  // The headless shell reads it from this switch; a full Chromium ignores the switch and reads
  // the same policy from the profile instead (`webrtcPreferences` below).
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
] as const;

/**
 * V8's memory-saving mode for the renderers, which a pool of three or more tabs launches with
 * (`launchArgsFor`): each renderer's heap is kept smaller (a smaller young generation, earlier
 * collections, leaner compiled code), so a third tab fits the whole tree's 1 GB (`poolMemory`).
 * Measured on bench's site (`bench/scan/flags.ts`): at 2 tabs peak PSS 586-740 MB against
 * 775-1,135 without it, for 7-13% more CPU a page (docs/decisions/0044-memory-at-two-tabs.md).
 */
export const leanMemoryArgs = ['--js-flags=--optimize-for-size'] as const;

/**
 * What a pool of two tabs launches with: only the heap's growth is tuned, not V8's compiler. The
 * old generation grows by 1.25x a step instead of V8's own larger steps, and the young
 * generation's semi-spaces are capped at 8 MB. Measured at 2 tabs over bench's 50 pages against
 * the memory-saving mode in one run (`bench/scan/flags.ts --ref`, 2026-11-29): 1.44-1.52 s of CPU
 * a page against 1.67, 59-64 pages a minute against 55-60, peak 870-881 MB against 788-833
 * (docs/decisions/0048-two-tabs-without-the-memory-saving-mode.md). A third tab would take the
 * tree past 1 GB with it, so three or more keep `leanMemoryArgs`.
 */
export const twoTabMemoryArgs = [
  '--js-flags=--heap-growing-percent=25 --max-semi-space-size=8',
] as const;

/** Extra Chromium switches for a browser that will run `tabs` tabs at once. */
export function launchArgsFor(tabs: number): string[] {
  if (tabs >= 3) return [...leanMemoryArgs];
  return tabs === 2 ? [...twoTabMemoryArgs] : [];
}

/**
 * Profile preferences written into every fresh profile before launch: the WebRTC policy of
 * `chromiumArgs` for a full Chromium (`--headless=new`), whose browser contexts inherit it from the
 * profile. Measured on Debian's chromium 156: with the switch alone a page still sent STUN to a
 * loopback UDP port and got a srflx candidate back; with this preference it sent nothing.
 */
const webrtcPreferences = {
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp' },
} as const;

export interface LaunchedChromium {
  browser: Browser;
  /** Closes the browser, kills it if it does not exit, and removes its profile folder. */
  close(): Promise<void>;
}

const closeGraceMs = 5_000;

/**
 * Launches one headless Chromium with a fresh profile that is removed when it closes. Scans run in
 * browser contexts with a proxy of their own (browser-pool.ts); anything outside them, the default
 * context included, goes through a proxy that reaches public addresses only. `<-loopback>` stops
 * Chromium's implicit bypass of loopback, so nothing connects directly.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'conformly-chromium-'));
  const fallbackProxy = await startEgressProxy();
  let browser: Browser;
  try {
    await mkdir(join(userDataDir, 'Default'));
    await writeFile(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(webrtcPreferences));
    // The headless shell when installed (chromium-path.ts); it takes the plain `--headless`.
    const executablePath = options.executablePath ?? findChromium();
    browser = await puppeteer.launch({
      executablePath,
      headless: isHeadlessShell(executablePath) ? 'shell' : true,
      // Over a pipe, Chromium exits by itself when this process dies, even by SIGKILL; a
      // WebSocket-only browser would live on as an orphan. Pass `pipe: false` to share it.
      pipe: true,
      ...options,
      // Always the fresh profile made above: it holds `webrtcPreferences`.
      userDataDir,
      args: [
        ...chromiumArgs,
        `--proxy-server=${fallbackProxy.url}`,
        '--proxy-bypass-list=<-loopback>',
        ...(options.args ?? []),
      ],
    });
  } catch (error) {
    await fallbackProxy.close();
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const child = browser.process();
      // Nothing in the profile is kept, so there is nothing for a graceful Browser.close to save:
      // killing the browser ends it at once (measured 250 ms faster per close; its children exit
      // with their pipe). It also ends a hung or half-crashed browser that would ignore a close.
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await Promise.race([
          exited,
          new Promise((resolve) => setTimeout(resolve, closeGraceMs).unref()),
        ]);
      }
      await browser.disconnect().catch(() => undefined);
      await fallbackProxy.close();
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    })());
  return { browser, close };
}
