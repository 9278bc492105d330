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
 * V8's memory-saving mode for the renderers, which a pool of two or more tabs launches with
 * (`launchArgsFor`): each renderer's heap is kept smaller (a smaller young generation, earlier
 * collections), so a second and third tab fit the whole tree's 1 GB (`poolMemory`). Measured on
 * bench's site at 2 tabs (`bench/scan/flags.ts`, variant `js-optimize-for-size`): peak PSS 586-640
 * MB against 775-923 without it (renderers 197-238 MB against 375-450), for 5-9% more CPU a page
 * (measured on a busy machine). A single tab stays under the budget without it, so it is spared
 * the CPU (docs/decisions/0044-memory-at-two-tabs.md).
 */
export const leanMemoryArgs = ['--js-flags=--optimize-for-size'] as const;

/** Extra Chromium switches for a browser that will run `tabs` tabs at once. */
export function launchArgsFor(tabs: number): string[] {
  return tabs > 1 ? [...leanMemoryArgs] : [];
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
