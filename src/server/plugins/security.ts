import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers on every answer. The web app is served from the same origin and loads nothing
 * from elsewhere except Stripe.js (only in Stripe mode), so the policy allows self plus Stripe.
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
});

export const securityPlugin = fp(
  async function security(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
    });
  },
  { name: 'security' },
);
