import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parsePageAction } from '#scanner';
import type { PageTarget } from './config/plan.js';
import type { PageSettings } from './config/schema.js';
import { CliError } from './exit-codes.js';
import type { ScanOutcome } from './scan-pages.js';

/**
 * A URL as pa11y reads it (its `sanitizeUrl`): text starting with a dot, an absolute path, or a
 * path that exists is a local file; anything else without an http(s) or file scheme is `http://`.
 */
export function pa11yUrl(input: string, cwd: string = process.cwd()): string {
  if (/^[.]/.test(input) || isAbsolute(input) || existsSync(resolve(cwd, input))) {
    return pathToFileURL(resolve(cwd, input)).href;
  }
  return /^(https?|file):\/\//i.test(input) ? input : `http://${input}`;
}

/**
 * pa11y-ci's paths: each glob (`*`, `**`, `?`) expanded to the files it matches, sorted; a path
 * without one, or a glob matching nothing, is kept as written (a URL such as "example.com").
 */
export async function expandPaths(
  paths: readonly string[],
  cwd = process.cwd(),
): Promise<string[]> {
  const expanded: string[] = [];
  for (const path of paths) {
    if (!/[*?]/.test(path)) {
      expanded.push(path);
      continue;
    }
    const fixed = path.split(/[\\/]/);
    const firstGlob = fixed.findIndex((part) => /[*?]/.test(part));
    const base = resolve(cwd, fixed.slice(0, firstGlob).join('/') || '.');
    const pattern = globPattern(resolve(cwd, path));
    const found = (await walk(base)).filter((file) => pattern.test(file)).sort();
    const relativeTo = (file: string) => {
      const text = relative(cwd, file).split(sep).join('/');
      return isAbsolute(path) ? file : text.startsWith('.') ? text : `./${text}`;
    };
    expanded.push(...(found.length > 0 ? found.map(relativeTo) : [path]));
  }
  return expanded;
}

function globPattern(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] as string;
    if (char === '*' && glob[index + 1] === '*') {
      // `**/` matches no folder or any number of them.
      source += glob[index + 2] === '/' ? '(?:.*/)?' : '.*';
      index += glob[index + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Files under `folder`, skipping dot folders and node_modules as globby's users expect. */
async function walk(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface LocalFiles {
  /** The targets, local files replaced by their address on the loopback server. */
  targets: PageTarget[];
  /** The server's origin, when there is one: named by the user, so allowed. */
  origins: string[];
  /** Each target as the user wrote it (a file:// URL for a file), by position. */
  inputs: string[];
  /** Puts the file:// URLs back in the results and failures. */
  restore(outcome: ScanOutcome): void;
  close(): Promise<void>;
}

/**
 * pa11y opens a local file as a file:// page; the scanner only loads http(s), behind its egress
 * proxy. So the files are served on 127.0.0.1 under an unguessable path, from the working
 * directory (or the file's own folder when it lies outside it), so that their relative
 * stylesheets, scripts and images load as they would from disk. Dot files are never served.
 */
export async function serveLocalFiles(targets: readonly PageTarget[]): Promise<LocalFiles> {
  const inputs = targets.map((target) => target.input);
  const files = targets.map((target) =>
    /^file:\/\//i.test(target.input) ? fileURLToPath(target.input) : undefined,
  );
  if (files.every((file) => file === undefined)) {
    return {
      targets: [...targets],
      origins: [],
      inputs,
      restore: () => undefined,
      close: async () => undefined,
    };
  }
  for (const file of files) {
    if (
      file &&
      !(await stat(file).then(
        (info) => info.isFile(),
        () => false,
      ))
    ) {
      throw new CliError(`The local file ${file} could not be found.`);
    }
  }
  const cwd = process.cwd();
  const roots = new Map<string, string>(); // token -> folder
  const rootOf = (file: string) => {
    const inside = !relative(cwd, file).startsWith('..');
    const folder = inside ? cwd : dirname(file);
    for (const [token, root] of roots) if (root === folder) return token;
    const token = randomBytes(12).toString('hex');
    roots.set(token, folder);
    return token;
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const [, token, ...rest] = path.split('/');
    const root = roots.get(token ?? '');
    const file = root ? resolve(root, ...rest) : undefined;
    const safe =
      file !== undefined &&
      !relative(root as string, file).startsWith('..') &&
      !rest.some((part) => part.startsWith('.'));
    if (!safe || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const stream = createReadStream(file);
    stream.once('open', () => {
      res.writeHead(200, {
        'content-type': contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream',
      });
      stream.pipe(res);
    });
    stream.once('error', () => {
      if (!res.headersSent) res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served = new Map<string, string>(); // served URL -> file:// URL
  const mapped = targets.map((target, index) => {
    const file = files[index];
    if (!file) return target;
    const token = rootOf(file);
    const path = relative(roots.get(token) as string, file)
      .split(sep)
      .map(encodeURIComponent)
      .join('/');
    const url = `${origin}/${token}/${path}`;
    served.set(url, pathToFileURL(file).href);
    return { ...target, input: url };
  });
  const back = (url: string) => {
    for (const [address, fileUrl] of served) if (url === address) return fileUrl;
    for (const [token, root] of roots) {
      const prefix = `${origin}/${token}/`;
      if (url.startsWith(prefix)) {
        return pathToFileURL(join(root, decodeURIComponent(url.slice(prefix.length)))).href;
      }
    }
    return url;
  };
  return {
    targets: mapped,
    origins: [origin],
    inputs,
    restore(outcome) {
      for (const result of outcome.results) {
        result.url = back(result.url);
        result.finalUrl = back(result.finalUrl);
      }
      for (const failure of outcome.failures) failure.url = back(failure.url);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** pa11y's `screen capture` into a folder that does not exist yet: the folder is made first. */
export async function createScreenCaptureFolders(settings: readonly PageSettings[]): Promise<void> {
  for (const page of settings) {
    for (const text of page.actions ?? []) {
      const action = parsePageAction(text);
      if (action?.name === 'screen-capture' && action.target) {
        await mkdir(dirname(resolve(action.target)), { recursive: true });
      }
    }
  }
}
