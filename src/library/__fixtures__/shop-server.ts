/**
 * The fixture shop the library's tests and examples scan: its static pages, plus a sign-in that
 * sets a session cookie and an account page only a signed-in visitor sees (with one known
 * barrier: the avatar has no text alternative), and the barriers page again under a strict
 * Content-Security-Policy (no script may run but the page's own, none of them inline).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startStaticServer, type TestServer } from '../../../test/support/static-server.js';

const pages = fileURLToPath(new URL('.', import.meta.url));

export const accountPage = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Your account</title></head>
  <body>
    <main>
      <h1>Your account</h1>
      <img id="avatar" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="48" height="48" />
      <p>Signed in.</p>
    </main>
  </body>
</html>`;

export function startShop(): Promise<TestServer> {
  return startStaticServer(pages, {
    routes: {
      '/login': (request, response) => {
        request.resume();
        response.writeHead(303, {
          location: '/account',
          'set-cookie': 'session=signed-in; Path=/; HttpOnly; SameSite=Lax',
        });
        response.end();
      },
      '/strict-csp': (_request, response) => {
        void readFile(`${pages}/barriers.html`, 'utf8').then((html) =>
          response
            .writeHead(200, {
              'content-type': 'text/html; charset=utf-8',
              'content-security-policy':
                "default-src 'self'; script-src 'self'; style-src 'unsafe-inline'; img-src data:",
            })
            .end(html),
        );
      },
      '/account': (request, response) => {
        if (!/(^|;\s*)session=signed-in(;|$)/.test(request.headers.cookie ?? '')) {
          response.writeHead(303, { location: '/login.html' }).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(accountPage);
      },
    },
  });
}
