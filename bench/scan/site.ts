import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The benchmark's website, generated in memory so every run scans the same bytes: a small page, a
 * ~1,500-element page, and a 50-page site built from ten realistic templates (home, article,
 * catalogue, product, form, data table, blog index, FAQ, pricing, team) with a shared header,
 * navigation, footer, stylesheet and images. Pages carry the everyday defects real sites have
 * (images without alt, low contrast, unlabeled fields, empty links) so every engine has work to do.
 */

export interface BenchPage {
  path: string;
  template: string;
  /** Elements in the served HTML (opening tags), to show what "small" and "large" mean. */
  elements: number;
}

export interface BenchSite {
  /** Base URL without trailing slash. */
  url: string;
  small: BenchPage;
  large: BenchPage;
  /** The 50 pages of the throughput and memory runs. */
  pages: BenchPage[];
  close(): Promise<void>;
}

interface Asset {
  type: string;
  body: string;
}

export const sitePageCount = 50;

/** Deterministic pseudo-random numbers (mulberry32), so the site is identical on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words =
  'access audit browser contrast design editor focus guide heading image keyboard label layout link menu notice order page reader screen search service table team text update user visual website'.split(
    ' ',
  );

function sentence(rand: () => number, length: number): string {
  const picked = Array.from({ length }, () => words[Math.floor(rand() * words.length)]!);
  const text = picked.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

const stylesheet = `body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;margin:0}
header,footer{background:#0b3d6b;color:#fff;padding:12px 24px}header a,footer a{color:#fff}
nav ul{list-style:none;display:flex;gap:16px;padding:0;margin:0}main{max-width:1100px;margin:0 auto;padding:24px}
.card{display:inline-block;width:220px;margin:8px;vertical-align:top;border:1px solid #ccc;padding:8px}
.muted{color:#aaa}.faint{color:#ddd;background:#fff}table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px 8px}
.btn{background:#0b66c3;color:#fff;padding:8px 12px;border-radius:4px;text-decoration:none}
footer .cols{display:flex;gap:48px}form label{display:block;margin-top:8px}`;

function svgImage(hue: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="140" viewBox="0 0 220 140"><rect width="220" height="140" fill="hsl(${hue},60%,70%)"/><circle cx="110" cy="70" r="40" fill="hsl(${hue},60%,40%)"/></svg>`;
}

const navItems = [
  'Home',
  'Products',
  'Pricing',
  'Blog',
  'Guides',
  'Support',
  'About',
  'Careers',
  'Contact',
];

function layout(title: string, body: string, rand: () => number): string {
  // Some pages forget the language attribute, as real sites do.
  const lang = rand() < 0.15 ? '' : ' lang="en"';
  const nav = navItems
    .map(
      (item, index) =>
        `<li><a href="/site/page-${String(index + 1).padStart(2, '0')}.html">${item}</a></li>`,
    )
    .join('');
  const footerColumns = ['Company', 'Resources', 'Legal']
    .map(
      (heading, column) =>
        `<div><h2>${heading}</h2><ul>${Array.from(
          { length: 5 },
          (_, index) =>
            `<li><a href="/site/page-${String(10 + column * 5 + index + 1).padStart(2, '0')}.html">${words[(column * 5 + index) % words.length]} ${heading.toLowerCase()}</a></li>`,
        ).join('')}</ul></div>`,
    )
    .join('');
  return `<!doctype html>
<html${lang}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | Example Co</title><link rel="stylesheet" href="/assets/site.css"></head>
<body>
<a href="#main">Skip to content</a>
<header><a href="/site/page-01.html"><img src="/assets/logo.svg" alt="Example Co" width="120" height="40"></a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
<form role="search" action="/search"><input type="search" name="q" aria-label="Search"><button>Search</button></form></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
<aside aria-label="Related"><h2>Related reading</h2><ul>${Array.from(
    { length: 12 },
    (_, index) => `<li><a href="/guide/${index}">${sentence(rand, 4)}</a></li>`,
  ).join('')}</ul></aside>
<footer><div class="cols">${footerColumns}</div><p class="muted">© 2026 Example Co. All rights reserved.</p></footer>
</body>
</html>`;
}

function image(rand: () => number, alt: string): string {
  const hue = Math.floor(rand() * 12);
  // About one image in six has no alt text.
  const altAttribute = rand() < 0.17 ? '' : ` alt="${alt}"`;
  return `<img src="/assets/img-${hue}.svg"${altAttribute} width="220" height="140">`;
}

function cards(rand: () => number, count: number): string {
  return Array.from({ length: count }, (_, index) => {
    const features = `<ul><li>${sentence(rand, 3)}</li><li>${sentence(rand, 3)}</li></ul>`;
    const name = `${words[index % words.length]} ${index + 1}`;
    const link =
      rand() < 0.05
        ? `<a href="/item/${index}"><span class="icon"></span></a>`
        : `<a href="/item/${index}">View ${name}</a>`;
    return `<div class="card">${image(rand, name)}<h3>${name}</h3><p${rand() < 0.1 ? ' class="faint"' : ''}>${sentence(rand, 12)}</p>${features}<p><span>€${(rand() * 200).toFixed(2)}</span> ${link}</p></div>`;
  }).join('\n');
}

function dataTable(rand: () => number, rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, index) =>
      `<tr><td>${index + 1}</td><td>Item ${index + 1}</td><td>${Math.floor(rand() * 100)}</td><td><a href="/item/${index + 1}">Details for item ${index + 1}</a></td></tr>`,
  ).join('\n');
  return `<table><caption>Stock list</caption><thead><tr><th scope="col">No.</th><th scope="col">Name</th><th scope="col">Stock</th><th scope="col">Link</th></tr></thead><tbody>
${body}
</tbody></table>`;
}

function paragraphs(rand: () => number, count: number): string {
  return Array.from(
    { length: count },
    () => `<p>${sentence(rand, 20 + Math.floor(rand() * 30))}</p>`,
  ).join('\n');
}

function formFields(rand: () => number, count: number): string {
  const kinds = ['text', 'email', 'tel', 'text', 'number', 'date'];
  return Array.from({ length: count }, (_, index) => {
    const id = `field-${index}`;
    const kind = kinds[index % kinds.length]!;
    // One field in five has no label, the commonest form defect.
    return rand() < 0.2
      ? `<div><input type="${kind}" name="${id}" placeholder="${words[index % words.length]}"></div>`
      : `<div><label for="${id}">${words[index % words.length]} ${index + 1}</label><input id="${id}" type="${kind}" name="${id}"></div>`;
  }).join('\n');
}

/** The ten templates of the 50-page site; `size` (0..1) scales each page's content. */
const templates: Record<string, (rand: () => number, size: number) => string> = {
  home: (rand, size) =>
    `<section><h2>Welcome</h2>${paragraphs(rand, 2)}<a class="btn" href="/site/page-03.html">Get started</a></section>
<section><h2>Featured</h2>${cards(rand, 8 + Math.floor(size * 24))}</section>`,
  article: (rand, size) =>
    `<article>${image(rand, 'Article illustration')}${Array.from(
      { length: 4 + Math.floor(size * 10) },
      (_, index) => `<h2>Section ${index + 1}</h2>${paragraphs(rand, 3)}`,
    ).join('\n')}</article>`,
  catalogue: (rand, size) => `<h2>All products</h2>${cards(rand, 24 + Math.floor(size * 40))}`,
  product: (rand, size) =>
    `<div>${image(rand, 'Product photo')}${image(rand, 'Product detail')}</div><h2>Description</h2>${paragraphs(rand, 3)}
<h2>Specifications</h2>${dataTable(rand, 10 + Math.floor(size * 40))}<h2>Related</h2>${cards(rand, 4)}`,
  form: (rand, size) =>
    `<form action="/submit" method="post"><fieldset><legend>Your details</legend>${formFields(rand, 8 + Math.floor(size * 20))}</fieldset>
<label><input type="checkbox" name="terms"> I accept the terms</label><button type="submit">Send</button><button type="button"></button></form>`,
  table: (rand, size) => `<h2>Inventory</h2>${dataTable(rand, 40 + Math.floor(size * 110))}`,
  blog: (rand, size) =>
    Array.from(
      { length: 8 + Math.floor(size * 16) },
      (_, index) =>
        `<article><h2><a href="/post/${index}">${sentence(rand, 6)}</a></h2><p class="${rand() < 0.15 ? 'muted' : ''}">${sentence(rand, 25)}</p><a href="/post/${index}">Read more</a></article>`,
    ).join('\n'),
  faq: (rand, size) =>
    Array.from(
      { length: 10 + Math.floor(size * 20) },
      () =>
        `<details><summary>${sentence(rand, 8).replace('.', '?')}</summary>${paragraphs(rand, 1)}</details>`,
    ).join('\n'),
  pricing: (rand) =>
    `<div>${['Starter', 'Team', 'Business', 'Enterprise']
      .map(
        (plan) =>
          `<div class="card"><h2>${plan}</h2><ul>${Array.from({ length: 6 }, () => `<li>${sentence(rand, 4)}</li>`).join('')}</ul><a class="btn" href="/signup?plan=${plan}">Choose ${plan}</a></div>`,
      )
      .join('')}</div>${paragraphs(rand, 2)}`,
  team: (rand, size) => `<h2>Our people</h2>${cards(rand, 10 + Math.floor(size * 24))}`,
};

const templateNames = Object.keys(templates);

function countElements(html: string): number {
  return html.match(/<[a-zA-Z][a-zA-Z0-9-]*/g)?.length ?? 0;
}

function smallPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Small page</title></head>
<body>
<main>
<h1>Opening hours</h1>
<p>We are open Monday to Friday, 9:00 to 17:00.</p>
<img src="/assets/img-1.svg" width="220" height="140">
<form><input type="text" name="email" placeholder="E-mail"><button></button></form>
<p style="color:#bbb">Closed on public holidays.</p>
<a href="/contact"></a>
<ul><li><a href="/site/page-01.html">Home</a></li><li><a href="/site/page-05.html">Contact</a></li></ul>
</main>
</body>
</html>`;
}

/** ~1,500 elements: a 130-row table and 60 cards inside the site's layout, like the prototype's large.html. */
function largePage(): string {
  const rand = random(1500);
  return layout(
    'Large catalogue',
    `<h2>Price list</h2>\n${dataTable(rand, 130)}\n<h2>Products</h2>\n${cards(rand, 60)}`,
    () => 0.5,
  );
}

function buildAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const html = (body: string): Asset => ({ type: 'text/html; charset=utf-8', body });
  assets.set('/small.html', html(smallPage()));
  assets.set('/large.html', html(largePage()));
  for (let index = 1; index <= sitePageCount; index += 1) {
    const rand = random(index * 7919);
    const template = templateNames[(index - 1) % templateNames.length]!;
    const size = rand();
    const title = `${template.charAt(0).toUpperCase()}${template.slice(1)} ${index}`;
    // Content scale 0.4-1.8: most pages a few hundred elements, some near a thousand.
    const body = layout(title, templates[template]!(rand, 0.4 + size * 1.4), rand);
    assets.set(`/site/page-${String(index).padStart(2, '0')}.html`, html(body));
  }
  assets.set('/assets/site.css', { type: 'text/css', body: stylesheet });
  assets.set('/assets/logo.svg', { type: 'image/svg+xml', body: svgImage(210) });
  for (let hue = 0; hue < 12; hue += 1) {
    assets.set(`/assets/img-${hue}.svg`, { type: 'image/svg+xml', body: svgImage(hue * 30) });
  }
  return assets;
}

function pageInfo(assets: Map<string, Asset>, path: string): BenchPage {
  const template = path.startsWith('/site/')
    ? templateNames[(Number(path.match(/\d+/)![0]) - 1) % templateNames.length]!
    : path.slice(1, -'.html'.length);
  return { path, template, elements: countElements(assets.get(path)!.body) };
}

/** Serves the generated site on 127.0.0.1 at a free port; unknown paths answer 404. */
export async function startBenchSite(): Promise<BenchSite> {
  const assets = buildAssets();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const asset = assets.get(path);
    if (!asset) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' }).end(asset.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const pages = [...assets.keys()]
    .filter((path) => path.startsWith('/site/'))
    .map((path) => pageInfo(assets, path));
  return {
    url: `http://127.0.0.1:${port}`,
    small: pageInfo(assets, '/small.html'),
    large: pageInfo(assets, '/large.html'),
    pages,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
