/**
 * Records the landing page's product video: a real scan of a small demo website in the real app,
 * from typing the address to reading the report, written to
 * src/web/public/media/landing-demo.webm (VP9, no sound) and its poster landing-demo.jpg.
 *
 * Regenerate after a visible change to the scan or report screens:
 *
 *   apt-get install ffmpeg        # only this script needs it; the app serves the committed files
 *   npm run video:landing         # builds the web app, records, encodes
 *
 * The caption in src/web/features/landing/components/product-video.tsx says what the video shows
 * (length, score, violations): check it against the new recording.
 *
 * How: the service runs here as `npm start` would (PGlite in memory, a scan worker on Debian's
 * Chromium) and serves the built app; a demo site with known accessibility problems answers on
 * 127.0.0.1 under the reserved name harbor-bakery.example, which both the scanner's browser and
 * the recording browser resolve there (--host-resolver-rules). Playwright drives the screens and
 * films them with screenshots, frame by frame (the engines' work as a time-lapse of a few
 * seconds); ffmpeg encodes the frames.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, stat, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '#config';
import { openDatabase } from '#db/client.js';
import { createQueue } from '#jobs/boss.js';
import { startScanWorker } from '#jobs/scan-worker.js';
import { createPagePool, findChromium } from '#scanner';
import { buildApp } from '#server/app.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const webRoot = join(root, 'dist/web');
const outDir = join(root, 'src/web/public/media');
const videoPath = join(outDir, 'landing-demo.webm');
const posterPath = join(outDir, 'landing-demo.jpg');
const demoHost = 'harbor-bakery.example';
const viewport = { width: 1280, height: 720 };
const fps = 12;
/** The encoder's quality (lower is better); raised until the file is under the size limit. */
const crfSteps = [38, 42, 46, 50];
const maxBytes = 1.5 * 1024 * 1024;

/** The demo site: a bakery's home page with the problems a first scan usually finds. */
const demoPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Harbor Bakery</title>
<style>
  body { font-family: Georgia, serif; margin: 0; color: #3b2f2f; background: #fffaf3; }
  header { display: flex; justify-content: space-between; align-items: center; padding: 16px 32px; background: #7a4b2a; }
  header a { color: #f3e3d3; margin-left: 16px; text-decoration: none; }
  .hero { padding: 48px 32px; }
  .hero p.tagline { color: #c9b8a8; font-size: 18px; }
  form { margin-top: 24px; }
</style>
</head>
<body>
<header>
  <img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='120' height='32'%3E%3Crect width='120' height='32' rx='6' fill='%23f3e3d3'/%3E%3C/svg%3E" width="120" height="32">
  <nav><a href="#menu">Menu</a><a href="#visit">Visit</a><a href="#order">Order</a></nav>
</header>
<main class="hero">
  <h1>Fresh bread every morning</h1>
  <p class="tagline">Baked on the harbour since 1984. Pick up by 9 am or we deliver.</p>
  <img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='480' height='200'%3E%3Crect width='480' height='200' fill='%23d9a066'/%3E%3C/svg%3E" width="480" height="200">
  <p>Today's loaves: sourdough, rye and seeded spelt. <a href="#menu">Click here</a>.</p>
  <form action="#order">
    <input type="email" placeholder="Your e-mail for the weekly menu">
    <button type="submit"><svg width="16" height="16" viewBox="0 0 16 16"><path d="M2 8h12M9 3l5 5-5 5" stroke="#000" fill="none"/></svg></button>
  </form>
</main>
</body>
</html>`;

async function main(): Promise<void> {
  await access(join(webRoot, 'index.html')).catch(() => {
    throw new Error('dist/web is missing: run `vite build` first (npm run video:landing does)');
  });
  execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });

  const site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(demoPage);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  const resolverRule = `--host-resolver-rules=MAP ${demoHost} 127.0.0.1:${sitePort}`;

  // The service as `npm start` runs it, on a database that lives only as long as this script.
  const config = loadConfig({
    DATA_DIR: 'memory://',
    ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
  });
  const database = await openDatabase(config);
  const boss = await createQueue(database);
  const executablePath = findChromium(config.chromiumPath);
  const pool = createPagePool({ size: 2, launchOptions: { executablePath, args: [resolverRule] } });
  const worker = await startScanWorker({
    database,
    boss,
    pool,
    concurrency: 2,
    allowPrivateTargets: true,
    pollingIntervalSeconds: 0.5,
  });
  const app = await buildApp(config, { database, boss, pool, webRoot });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  // The recorded visitor uses a full browser; the scans behind it run on the scanner's choice.
  const browser = await chromium.launch({
    executablePath: findChromium(config.chromiumPath, { fullBrowser: true }),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', resolverRule],
  });
  const framesDir = await mkdtemp(join(tmpdir(), 'landing-video-'));
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport });
    const page = await context.newPage();
    await signUp(page);
    const { frames, posterFrame } = await record(page);
    console.log(`${frames.length} frames (${(frames.length / fps).toFixed(1)} s at ${fps} fps)`);
    await Promise.all(
      frames.map((frame, i) => writeFile(join(framesDir, frameName(i + 1)), frame)),
    );
    await mkdir(outDir, { recursive: true });
    await encode(framesDir, posterFrame);
  } finally {
    await browser.close();
    await app.close();
    await worker.stop({ graceful: false });
    await boss.stop({ graceful: false, wait: true });
    await pool.close();
    await database.close();
    site.close();
    await rm(framesDir, { recursive: true, force: true });
  }
}

/** A fresh account, made through the API the sign-up form uses. */
async function signUp(page: Page): Promise<void> {
  const { csrfToken } = (await (await page.request.get('/api/csrf-token')).json()) as {
    csrfToken: string;
  };
  const response = await page.request.post('/api/auth/register', {
    data: { email: 'demo@harbor-bakery.example', password: 'Demo-Video-2025!' },
    headers: { 'x-csrf-token': csrfToken },
  });
  if (!response.ok())
    throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
}

/**
 * The story, filmed frame by frame so its pace does not depend on the machine: each step adds the
 * frames it lasts (a still screen repeats its screenshot), and the engines' work, filmed as it
 * happens, becomes four seconds of video however long the scan took.
 */
async function record(page: Page) {
  const frames: Buffer[] = [];
  const shot = () => page.screenshot({ type: 'jpeg', quality: 90 });
  const hold = async (seconds: number) => {
    const frame = await shot();
    for (let i = 0; i < Math.round(seconds * fps); i += 1) frames.push(frame);
  };

  await page.goto('/app/scan');
  await page.getByRole('heading', { level: 1, name: 'Scan a website' }).waitFor();
  await hold(1.2);
  const field = page.getByLabel('Website URL');
  await field.click();
  // Two characters a frame: about six characters a second of video.
  const address = `http://${demoHost}/`;
  for (let i = 0; i < address.length; i += 2) {
    await field.pressSequentially(address.slice(i, i + 2));
    frames.push(await shot());
  }
  await hold(0.6);

  await page.getByRole('button', { name: 'Start scan' }).click();
  const lapse: Buffer[] = [];
  const deadline = Date.now() + 120_000;
  while (!new URL(page.url()).pathname.startsWith('/report/')) {
    if (Date.now() > deadline) throw new Error('The demo scan did not reach its report in 2 min');
    lapse.push(await shot());
    await pause(150);
  }
  // Four seconds of video: a long scan is thinned, a quick one held longer on each screen.
  const lapseFrames = 4 * fps;
  for (let i = 0; i < lapseFrames; i += 1) {
    frames.push(lapse[Math.floor((i * lapse.length) / lapseFrames)]!);
  }

  await page.getByRole('heading', { level: 1, name: /Accessibility report for/ }).waitFor();
  await pause(300);
  await hold(1);
  const posterFrame = frames.length;
  await hold(1.5);
  await smoothScrollTo(page, '#issues', 2.5, async () => {
    frames.push(await shot());
  });
  await hold(2.2);
  return { frames, posterFrame };
}

/** Scrolls to `selector` in `seconds` of video (ease in and out), filming each step. */
async function smoothScrollTo(
  page: Page,
  selector: string,
  seconds: number,
  film: () => Promise<void>,
): Promise<void> {
  const target = await page.evaluate(
    (s) => (document.querySelector(s)?.getBoundingClientRect().top ?? 0) + window.scrollY - 80,
    selector,
  );
  const start = await page.evaluate(() => window.scrollY);
  const steps = Math.round(seconds * fps);
  for (let i = 1; i <= steps; i += 1) {
    const t = i / steps;
    const eased = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    await page.evaluate(
      (y) => window.scrollTo({ top: y, behavior: 'instant' }),
      start + (target - start) * eased,
    );
    await film();
  }
}

async function encode(framesDir: string, posterFrame: number): Promise<void> {
  for (const crf of crfSteps) {
    execFileSync(
      'ffmpeg',
      [
        ['-y', '-loglevel', 'error', '-framerate', String(fps)],
        ['-i', join(framesDir, '%05d.jpg')],
        ['-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', String(crf), '-row-mt', '1'],
        ['-deadline', 'good', '-cpu-used', '2', '-pix_fmt', 'yuv420p', '-an'],
        [videoPath],
      ].flat(),
      { stdio: 'inherit' },
    );
    const { size } = await stat(videoPath);
    console.log(`crf ${crf}: ${(size / 1024).toFixed(0)} KB`);
    if (size <= maxBytes) break;
    if (crf === crfSteps.at(-1)) throw new Error('The video stays over 1.5 MB; shorten the story');
  }
  execFileSync(
    'ffmpeg',
    [
      ['-y', '-loglevel', 'error'],
      ['-i', join(framesDir, frameName(posterFrame))],
      ['-q:v', '5', posterPath],
    ].flat(),
    { stdio: 'inherit' },
  );
  console.log(`wrote ${videoPath} and ${posterPath}`);
}

const frameName = (n: number) => `${String(n).padStart(5, '0')}.jpg`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
