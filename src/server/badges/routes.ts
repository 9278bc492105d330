import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BadgeQuery,
  DomainBadge,
  DomainBadgeList,
  DomainParams,
  SaveBadgeBody,
} from '#contract/index.js';
import { UnauthorizedError } from '../http-errors.js';
import { emptyResponse, signedIn as signedInSecurity, textResponse } from '../plugins/openapi.js';
import { AnswerCache, sendHeld, sendVersioned, type HeldAnswer } from '../public/cache.js';
import { PublicVersions } from '../public/versions.js';
import * as service from './service.js';

export interface BadgeRoutesOptions {
  deps: service.BadgeServiceDeps;
  /** Rendered badges kept in this process; a default-sized one when omitted. */
  cache?: AnswerCache;
  /** The domains' public versions; without one, each request reads the version. */
  versions?: PublicVersions;
}

/**
 * The badge image (spec §7 `GET /api/badge/{domain}`, and `/badge/{domain}` that the copied HTML
 * names) and the configurator's calls. HTTP only; rules in the service.
 */
export const badgeRoutes: FastifyPluginAsyncZod<BadgeRoutesOptions> = async (app, options) => {
  const { deps } = options;
  const cache = options.cache ?? new AnswerCache();
  const versions = options.versions ?? new PublicVersions(deps.db);

  // Badge addresses already answered, as requested (path and query), with the domain and shape
  // they name. Sites embed one address each, so a few thousand cover every popular badge.
  const addresses = new Map<string, HeldAnswer>();
  const rememberAddress = (url: string, held: HeldAnswer) => {
    if (addresses.has(url)) return;
    if (addresses.size >= cache.maxEntries) addresses.delete(addresses.keys().next().value!);
    addresses.set(url, held);
  };
  // Other sites embed the badge; as a document of its own it may run and load nothing.
  const embeddable = (reply: FastifyReply) =>
    reply
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");

  const badgeRoutes = [
    { path: '/api/badge/:domain', operationId: 'getBadge' },
    { path: '/badge/:domain', operationId: 'getEmbeddedBadge' },
  ];
  for (const { path, operationId } of badgeRoutes) {
    app.get(
      path,
      {
        schema: {
          operationId,
          summary: "A monitored domain's accessibility badge",
          description: path.startsWith('/api/')
            ? 'The SVG image other sites embed; the query chooses its look.'
            : 'The same badge at the address the copied embed code names.',
          tags: ['Badge'],
          params: DomainParams,
          querystring: BadgeQuery,
          response: {
            200: textResponse('The badge.', 'image/svg+xml'),
            304: emptyResponse('The copy the caller holds (If-None-Match) is current.'),
          },
        },
        // An address answered before skips validation and parsing: what this process holds
        // under the domain's current version (a 304 or the drawn badge) is sent as is.
        onRequest: async (request, reply) => {
          const held = addresses.get(request.url);
          if (held && (await sendHeld(request, embeddable(reply), held))) return reply;
        },
      },
      async (request, reply) => {
        const domain = service.badgeDomainOf(request.params.domain);
        const answer = { versions, cache, domain, shape: service.badgeShape(request.query) };
        const sent = await sendVersioned(request, embeddable(reply), {
          ...answer,
          render: async () => ({
            contentType: 'image/svg+xml; charset=utf-8',
            body: await service.getBadgeSvg(deps, domain, request.query),
          }),
        });
        rememberAddress(request.url, answer);
        return sent;
      },
    );
  }

  // A member, or an API token with domains:read on the list (access-rules.ts).
  const signedIn = async (request: FastifyRequest) => {
    if (!request.caller.organisationId) throw new UnauthorizedError('Log in to configure a badge');
  };

  app.get(
    '/api/badges',
    {
      schema: {
        operationId: 'listBadges',
        summary: "The caller's domains with their badge settings",
        tags: ['Badge'],
        security: signedInSecurity,
        response: { 200: DomainBadgeList },
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listOwnBadges(deps, request.caller.organisationId!);
    },
  );

  app.put(
    '/api/domains/:domain/badge',
    {
      schema: {
        operationId: 'saveBadgeSettings',
        summary: "Save a domain's badge settings",
        tags: ['Badge'],
        security: signedInSecurity,
        params: DomainParams,
        body: SaveBadgeBody,
        response: { 200: DomainBadge },
      },
      preValidation: signedIn,
    },
    async (request) =>
      service.saveOwnBadge(
        deps,
        request.caller.organisationId!,
        request.params.domain,
        request.body.settings,
        request.caller,
      ),
  );
};
