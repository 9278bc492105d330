import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  /** As registered: `/api/scans/:id/events`. */
  path: string;
  methods: string[];
}

/**
 * Every route the app registers, read from the route tree Fastify prints (Fastify keeps no list
 * of routes to ask), flattened into full paths.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (match[3]) routes.push({ path, methods: match[3].split(', ') });
  }
  return routes;
}
