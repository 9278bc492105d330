import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

export interface TestServer {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port. */
export async function startServer(handler: RequestListener): Promise<TestServer> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Serves the folder `root` as static files, optionally below `mountPath` (e.g. the ACT corpus
 * must answer at /WAI/content-assets/wcag-act-rules/). `routes` answer specific paths first.
 */
export async function startStaticServer(
  root: string,
  options: { mountPath?: string; routes?: Record<string, RequestListener> } = {},
): Promise<TestServer> {
  const mount = (options.mountPath ?? '/').replace(/\/?$/, '/');
  const files = sirv(root, { dev: true, etag: false, dotfiles: false });
  return startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = options.routes?.[path];
    if (route) return route(req, res);
    if (!path.startsWith(mount)) {
      res.writeHead(404).end('Not found');
      return;
    }
    req.url = '/' + (req.url ?? '/').slice(mount.length);
    files(req, res, () => {
      res.writeHead(404).end('Not found');
    });
  });
}
