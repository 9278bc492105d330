import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError } from '../http-errors.js';
import { roleAllows, roleLabels } from '../organisations/roles.js';
import { accessRules, type AccessRule } from './access-rules.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route, from access-rules.ts; set when the route is added. */
    access?: AccessRule;
  }
}

const ruleKey = (method: string, url: string) => `${method} ${url}`;

/**
 * The route's rule; HEAD routes follow their GET. Outside /api, routes are the web app's own
 * files (one route per built file), public like the app.
 */
export function ruleOf(method: string, url: string): AccessRule | undefined {
  const rule =
    accessRules[ruleKey(method, url)] ??
    (method === 'HEAD' ? accessRules[ruleKey('GET', url)] : undefined);
  return rule ?? (url.startsWith('/api/') ? undefined : { kind: 'public' });
}

const tokenRefused = () =>
  new ForbiddenError('API tokens cannot call this route; sign in to the dashboard instead');

/**
 * Checks the caller's role (or API token scope) against the route's rule before its input is
 * read, so a viewer's write is a 403 whatever its body holds. Anonymous callers of signed-in
 * routes are left to the route's own 401, which says what to do.
 */
export function checkAccess(request: FastifyRequest, rule: AccessRule): void {
  const { caller } = request;
  if (rule.kind === 'public') return;
  if (caller.token) {
    if (rule.kind === 'person' || !rule.scope) throw tokenRefused();
    if (!caller.token.scopes.includes(rule.scope)) {
      throw new ForbiddenError(`This API token lacks the "${rule.scope}" scope this route needs`);
    }
    return;
  }
  if (rule.kind === 'person' || caller.userId === undefined) return;
  if (!roleAllows(caller.role, rule.role)) {
    const has = caller.role ? roleLabels[caller.role] : 'none';
    throw new ForbiddenError(
      `Your role in this organisation (${has}) cannot do this; it needs ${roleLabels[rule.role]} or above`,
    );
  }
}

/**
 * Every route carries its access rule (access-rules.ts); a route missing from the table stops
 * the app at start-up rather than shipping unguarded.
 */
export const accessPlugin = fp(
  async function access(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        // A route may carry its rule itself (tests adding a route of their own do).
        const rule = route.config?.access ?? ruleOf(method, route.url);
        if (!rule) {
          throw new Error(
            `${method} ${route.url} has no access rule: add it to src/server/plugins/access-rules.ts`,
          );
        }
        route.config = { ...route.config, access: rule };
      }
    });
    app.addHook('preValidation', async (request) => {
      const rule = request.routeOptions.config.access;
      if (rule) checkAccess(request, rule);
    });
  },
  { name: 'access', dependencies: ['request-caller'] },
);
