import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as contract from '#contract/index.js';
import type { ApiTokenScope } from '#contract/index.js';
import { ruleOf } from './access.js';
import type { AccessRule } from './access-rules.js';
import { clientCookieName } from './csrf.js';
import { sessionCookieName } from './session.js';

/**
 * The API's description: every route's zod schemas published as an OpenAPI 3.1 document at
 * `GET /api/openapi.json`, and Swagger UI reading it at `/api/docs`. Registered before any
 * route, because @fastify/swagger learns the routes as they are added (onRoute).
 *
 * Routes carry their own operationId, summary, tags, schemas and, when a sign-in is needed,
 * `security: signedIn`. What every route shares is added here from what the app does, so the
 * document cannot drift from it: each operation's security requirement (below), and the error
 * body `{message}` (plugins/errors.ts) for 400 (bad input), 401 (sign-in), 403 (CSRF), 429
 * (rate limit) and any other 4xx.
 *
 * Security, as the session and CSRF plugins check it: a signed-in route needs the session
 * cookie, plus the CSRF header when it changes state. A public read needs nothing (`[]`). A
 * public call that changes state needs the CSRF header with the cookie its token is bound to:
 * the anonymous visitor's client cookie or a session. A route exempt from CSRF (`config: { csrf:
 * false }`) proves its caller with a signature in the request itself, described as a parameter
 * or body field, so it needs nothing from the browser either.
 *
 * An API token (`Authorization: Bearer`) is the other way in to every route whose access rule
 * (access-rules.ts) names a scope: such an operation lists `apiToken` as an alternative, without
 * the CSRF header, and its description names the scope, both read from the rule itself.
 */

export const openApiPath = '/api/openapi.json';
export const docsPrefix = '/api/docs';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The request body, for the description only, of a route that reads its body itself (an
     * upload, a signed webhook) and so has no body schema to validate it with.
     */
    openApiBody?: { mediaType: string; schema: z.ZodType; description?: string };
  }
}

/** The one error body of the API (plugins/errors.ts); upload errors repeat it as `error`. */
export const ErrorResponse = z.object({
  message: z.string().meta({ description: 'What went wrong, in words a person can act on.' }),
  error: z.string().optional().meta({ description: 'The same message (VPAT uploads, spec §7).' }),
});

/** `security` of a route that needs a signed-in session; a route without one is public. */
export const signedIn = [{ sessionCookie: [] }];

export const docxMediaType =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * A document answered as is (PDF, DOCX, CSV, ZIP, images...). Fastify sends a string, a buffer
 * or a stream without serializing it, so the schema describes and never checks; it is typed
 * `unknown` so a route may send a buffer.
 */
export function fileResponse(description: string, mediaTypes: readonly string[]) {
  const schema: z.ZodType<unknown> = z.string().meta({ format: 'binary' });
  return {
    description,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])),
  };
}

/** Text of one media type sent as is (an event stream, an HTML page, an SVG image). */
export function textResponse(description: string, mediaType: string) {
  const schema: z.ZodType<unknown> = z.string();
  return { description, content: { [mediaType]: { schema } } };
}

/** A JSON answer whose shape is described in words only (it comes from elsewhere). */
export function describedJson(description: string) {
  return { description, content: { 'application/json': { schema: z.looseObject({}) } } };
}

/** A response with no body (204, 302, 304): the description is all there is. */
export function emptyResponse(description: string) {
  return { description, content: {} };
}

/** The tags, in the order the reference shows them. */
const tags = [
  { name: 'Scans', description: 'Single-page scans: start, follow, read, share.' },
  { name: 'Audits', description: 'Page discovery, smart scans and multi-page audits.' },
  {
    name: 'Reports',
    description: 'Documents of a scan: HTML report, exports, raw engine output, statement PDF.',
  },
  { name: 'VPAT', description: 'VPAT 2.4 Word documents from a scan or from an OpenACR file.' },
  {
    name: 'Public',
    description: "A monitored domain's public status and audit pages; shared scans.",
  },
  { name: 'Badge', description: 'The embeddable accessibility badge and its settings.' },
  {
    name: 'Account',
    description:
      'Sign-up, log-in, password reset, the signed-in user, settings, e-mail preferences, CSRF token.',
  },
  {
    name: 'Dashboard',
    description: "The signed-in dashboard: overview, a domain's history, analytics, reports hub.",
  },
  { name: 'Domains', description: "An account's monitored domains and their ownership checks." },
  { name: 'Billing', description: 'Checkout, subscriptions and payments.' },
  { name: 'Add-ons', description: 'Extra documents bought for a domain.' },
  { name: 'Complaints', description: "Visitors' accessibility concerns and the owner's inbox." },
  { name: 'Organisation', description: 'Organisations, their members, roles and invitations.' },
  { name: 'Audit log', description: 'Who did what and when in the organisation; its CSV export.' },
  {
    name: 'Triage',
    description: "Issues' triage on a domain: false positives, accepted, assigned, and history.",
  },
  {
    name: 'Integrations',
    description: 'Issue trackers (GitHub, Jira CSV), the signed webhook, and rule-to-pages views.',
  },
  { name: 'Files', description: 'Files scans produced: screenshots and archives.' },
  { name: 'Webhooks', description: 'Calls other services make to us.' },
  { name: 'Reference', description: 'This description of the API.' },
];

const description = `Conformly's HTTP API: the calls its own web app makes.

**Sessions.** A browser signs in with \`POST /api/auth/login\`; the session is the httpOnly cookie
\`${sessionCookieName}\`. A lock marks the calls that need it, the CSRF header, or both.

**API tokens.** Scripts and CI jobs send \`Authorization: Bearer <token>\` instead of cookies. An owner
or admin creates the token in Settings → API tokens with the scopes it needs (\`scans:read\`,
\`scans:write\`, \`domains:read\`, \`complaints:read\`, \`results:upload\`); each call that accepts one
names its scope. A token call needs no CSRF header, and any cookies sent with it are ignored. An
unknown, revoked or expired token is a 401; a missing scope a 403; each token has its own rate limit
(429 with \`Retry-After\`).

**CSRF.** Every call other than a GET or a token call sends the header \`X-CSRF-Token\`: fetch it from
\`GET /api/csrf-token\` (it also sets the anonymous visitor's \`${clientCookieName}\` cookie the token is
bound to) and send it back with the same cookies. A signed-in session has its own token, answered
by log-in and by \`/api/csrf-token\`.

**Errors.** Every 4xx and 5xx answers JSON \`{"message": "..."}\`; a 400 names each bad field.`;

/** Contract schemas become named components (refs) instead of being repeated inline. */
function nameContractSchemas() {
  for (const [name, value] of Object.entries({ ...contract, ErrorResponse })) {
    if (!(value instanceof z.ZodType)) continue;
    const meta = z.globalRegistry.get(value);
    if (meta?.id || z.globalRegistry._idmap.has(name)) continue;
    z.globalRegistry.add(value, { ...meta, id: name });
  }
}

const errorRef = { $ref: '#/components/schemas/ErrorResponse' };
const errorResponse = (text: string) => ({
  description: text,
  content: { 'application/json': { schema: errorRef } },
});

type Security = Record<string, string[]>[];
type TransformInput = Parameters<typeof zodTransform>[0] & { route: RouteOptions };

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/** The zod transform, plus what the app adds to every route: CSRF and its error answers. */
function transform(input: TransformInput) {
  const result = zodTransform({ ...input, schema: withInlineParameters(input.schema) });
  const schema = result.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return result;
  const { route } = input;
  const documentedBody = route.config?.openApiBody;
  if (documentedBody) {
    const body = zodTransform({ ...input, schema: { body: documentedBody.schema } }).schema?.body;
    schema.body = { ...(body as object), description: documentedBody.description };
    schema.consumes = [documentedBody.mediaType];
  }
  const methods = [route.method].flat();
  const changesState = methods.some((method) => !['GET', 'HEAD', 'OPTIONS'].includes(method));
  const needsCsrf = changesState && route.config?.csrf !== false;
  const needsSession = Boolean(
    (schema.security as Security | undefined)?.some(
      (requirement) => 'sessionCookie' in requirement,
    ),
  );
  const scope = tokenScopeOf(route);
  schema.security = securityOf({ needsSession, needsCsrf, tokenScope: scope });
  if (scope) {
    const note = `**API token:** accepted with the \`${scope}\` scope (\`Authorization: Bearer\`, no CSRF header).`;
    schema.description = schema.description ? `${String(schema.description)}\n\n${note}` : note;
  }
  const responses = { ...(schema.response as Record<string, unknown> | undefined) };
  const add = (status: string, text: string) => {
    responses[status] ??= errorResponse(text);
  };
  if (schema.body || schema.querystring || schema.params) {
    add('400', 'The input is not valid; `message` names each bad field.');
  }
  if (needsSession) {
    add(
      '401',
      scope ? 'Not signed in, or the API token is unknown, revoked or expired.' : 'Not signed in.',
    );
  } else if (scope) {
    add('401', 'The API token is unknown, revoked or expired.');
  }
  if (needsCsrf) add('403', 'Missing or invalid CSRF token.');
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit || scope) {
    add(
      '429',
      scope
        ? 'Too many calls from this address or API token; `message` and `Retry-After` say when to try again.'
        : 'Too many calls from this address; `message` says when to try again.',
    );
  }
  add('4XX', 'Refused; `message` says why.');
  for (const [status, response] of Object.entries(responses)) {
    const { content, description } = response as { content?: object; description?: string };
    if (content && Object.keys(content).length === 0) {
      // No body (204, 302, 304): the description is all there is.
      responses[status] = { type: 'null', description };
    } else if (!content && !description) {
      // A JSON schema alone: named after its status rather than "Default Response".
      const text = STATUS_CODES[status] ?? status;
      responses[status] = {
        description: text,
        content: { 'application/json': { schema: response } },
      };
    }
  }
  schema.response = responses;
  return result;
}

/** The scope an API token needs to call the route, from its access rule; none: no token. */
function tokenScopeOf(route: RouteOptions): ApiTokenScope | undefined {
  const method = [route.method].flat().find((candidate) => candidate !== 'HEAD') ?? 'GET';
  const rule: AccessRule | undefined =
    (route.config as { access?: AccessRule } | undefined)?.access ?? ruleOf(method, route.url);
  return rule && (rule.kind === 'visitor' || rule.kind === 'organisation') ? rule.scope : undefined;
}

/** The credentials a call needs, as OpenAPI security requirements (any one of them will do). */
function securityOf({
  needsSession,
  needsCsrf,
  tokenScope,
}: {
  needsSession: boolean;
  needsCsrf: boolean;
  tokenScope: ApiTokenScope | undefined;
}): Security {
  const csrf: Record<string, string[]> = needsCsrf ? { csrfToken: [] } : {};
  // A token is judged alone: no cookie, no CSRF header.
  const token = tokenScope ? [{ apiToken: [] }] : [];
  if (needsSession) return [{ sessionCookie: [], ...csrf }, ...token];
  if (needsCsrf) return [{ clientCookie: [], ...csrf }, { sessionCookie: [], ...csrf }, ...token];
  // A public read a token may also make: nothing, or the token.
  return token.length ? [{}, ...token] : [];
}

/**
 * @fastify/swagger expands a route's params, query and headers into parameters itself and cannot
 * follow a reference to a named component there, so those are given unnamed (a copy is not in
 * the registry, nor derived from one); the fields inside them may still be references.
 */
function withInlineParameters(schema: TransformInput['schema']): TransformInput['schema'] {
  if (!schema) return schema;
  const inline = (value: unknown) => (value instanceof z.ZodObject ? z.object(value.shape) : value);
  return {
    ...schema,
    params: inline(schema.params),
    querystring: inline(schema.querystring),
    headers: inline(schema.headers),
  };
}

type OpenApiDocument = ReturnType<typeof zodTransformObject>;
interface DocumentParts {
  paths?: unknown;
  webhooks?: unknown;
  components?: { schemas?: Record<string, unknown> };
}
const zodTransformObject = createJsonSchemaTransformObject({});

/**
 * Every contract schema is named, so the zod transform emits all of them (input and output
 * variants); the document keeps those its operations reach.
 */
function transformObject(input: Parameters<typeof zodTransformObject>[0]): OpenApiDocument {
  const document = zodTransformObject(input) as OpenApiDocument & DocumentParts;
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = child.replace('#/components/schemas/', '');
        if (!reached.has(name) && name in schemas) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(child);
      }
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  const kept = Object.entries(schemas).filter(([name]) => reached.has(name));
  return {
    ...document,
    components: { ...document.components, schemas: Object.fromEntries(kept) },
  } as OpenApiDocument;
}

/**
 * Swagger UI's colours that fail WCAG AA contrast (white on its light method colours, light grey
 * and green text), darkened to 4.5:1 or more.
 */
const themeCss = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a5fb4; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1b7a48; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5200; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c01c28; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #00695c; }
.swagger-ui .btn.authorize { border-color: #1b7a48; color: #1b7a48; }
.swagger-ui .btn.authorize svg { fill: #1b7a48; }
.swagger-ui .info a { color: #1a5fb4; }
.swagger-ui .info .title small.version-stamp { background: #3b6e00; }
.swagger-ui .json-schema-2020-12__constraint { background: #5b3cc4; color: #fff; }
.swagger-ui .json-schema-2020-12__constraint--string { background: #8a5a00; color: #fff; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #505050; }
`;

export interface OpenApiOptions {
  /** PUBLIC_URL: the server the document's calls go to. */
  publicUrl: string;
}

export const openApiPlugin = fp<OpenApiOptions>(
  async function openApi(app: FastifyInstance, options) {
    nameContractSchemas();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Conformly API', version: '1', description },
        servers: [{ url: options.publicUrl }],
        tags,
        components: {
          securitySchemes: {
            sessionCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: sessionCookieName,
              description: 'The session a log-in starts (httpOnly; the browser sends it).',
            },
            apiToken: {
              type: 'http',
              scheme: 'bearer',
              description:
                "An organisation's API token (`cfy_…`), created in Settings → API tokens; each call names the scope it needs.",
            },
            csrfToken: {
              type: 'apiKey',
              in: 'header',
              name: 'X-CSRF-Token',
              description: 'The token of GET /api/csrf-token, on every call other than GET.',
            },
            clientCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: clientCookieName,
              description:
                "An anonymous visitor's id (httpOnly), set by GET /api/csrf-token; its CSRF " +
                'token is bound to it.',
            },
          },
        },
      },
      transform: transform as never,
      transformObject: transformObject as never,
    });

    let rendered: string | undefined;
    app.get(
      openApiPath,
      {
        schema: {
          operationId: 'getOpenApiDocument',
          summary: 'This API as an OpenAPI 3.1 document',
          tags: ['Reference'],
          response: { 200: describedJson('The OpenAPI document.') },
        },
      },
      async (_request, reply) => {
        // Routes are fixed once the app is ready, so the text is rendered once.
        rendered ??= JSON.stringify(app.swagger());
        return reply
          .type('application/json; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(rendered);
      },
    );

    await app.register(swaggerUi, {
      routePrefix: docsPrefix,
      // The app's own security headers (plugins/security.ts) already allow what Swagger UI needs:
      // its scripts, styles and the document all come from this origin.
      staticCSP: false,
      // Configured to pass our own scanner (e2e/own-scanner.test.ts): no top bar (an unlabelled
      // URL field, a logo without text), no deep-link anchors inside the operation buttons
      // (nested interactive elements), and the theme below for contrast.
      uiConfig: { layout: 'BaseLayout', deepLinking: false, docExpansion: 'none' },
      // The page is served by the server it describes: its calls go to the page's origin.
      transformSpecification: (document: Record<string, unknown>) => ({
        ...document,
        servers: undefined,
      }),
      theme: {
        title: 'Conformly API reference',
        css: [{ filename: 'conformly.css', content: themeCss }],
      },
    });
  },
  { name: 'openapi', dependencies: ['errors'] },
);
