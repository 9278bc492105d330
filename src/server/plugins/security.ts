import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers on every answer. The web app is served from the same origin and loads nothing
 * from elsewhere except Stripe.js (only in Stripe mode), so the policy allows self plus Stripe.
 * HSTS goes only to browsers that came over https; a Permissions-Policy turns off what is unused.
 *
 * helmet's middleware is built once here and applied to each request; the Fastify wrapper builds
 * it again on every request (parsing the policy each time), which cost the public badge and status
 * reads about a tenth of their CPU time.
 */
const securityHeaders = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // Stripe.js and what it needs (Stripe's CSP guide): its script, its card and 3-D Secure
      // frames, and its calls to Stripe's API when it confirms a payment.
      scriptSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
      frameSrc: [
        "'self'",
        'https://js.stripe.com',
        'https://*.js.stripe.com',
        'https://hooks.stripe.com',
      ],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'", 'https://api.stripe.com'],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      // Plain-http installs (a LAN address) must keep working; TLS is the proxy's job.
      upgradeInsecureRequests: null,
    },
  },
  // Screenshots and badges are embedded by other sites' pages (badge) and the app itself.
  crossOriginResourcePolicy: { policy: 'same-site' },
  // Sent per request below, only where the browser came over https.
  strictTransportSecurity: false,
});

/** helmet's default: a year, subdomains too. */
const hsts = 'max-age=31536000; includeSubDomains';

/**
 * Device features the app never asks for are off for it and every frame in it. Payments are
 * allowed to the page and Stripe's frames: the Payment Element offers Apple Pay and Google Pay
 * through the Payment Request API inside its own iframe. Clipboard and fullscreen keep their
 * defaults (the copy buttons and the landing video use them).
 */
export const permissionsPolicy = [
  'accelerometer=()',
  'bluetooth=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=(self "https://js.stripe.com" "https://*.js.stripe.com")',
  'serial=()',
  'usb=()',
].join(', ');

export interface SecurityOptions {
  /**
   * The public address is https with TLS ended before this server (PUBLIC_URL https, or
   * COOKIE_SECURE): every browser came over https, whatever the connection to us says.
   */
  servedOverHttps: boolean;
}

const security: FastifyPluginAsync<SecurityOptions> = async (app, options) => {
  app.addHook('onRequest', (request, reply, done) => {
    // HSTS over plain http is ignored by browsers and misleads readers of the headers, so it is
    // sent over https only: TLS here, a trusted proxy's X-Forwarded-Proto (request.protocol
    // believes it only from TRUST_PROXY addresses), or an https deployment.
    if (options.servedOverHttps || request.protocol === 'https') {
      reply.raw.setHeader('strict-transport-security', hsts);
    }
    reply.raw.setHeader('permissions-policy', permissionsPolicy);
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
};

export const securityPlugin = fp(security, { name: 'security' });
