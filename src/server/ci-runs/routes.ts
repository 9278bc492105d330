import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CiRunResponse, CiRunUpload, maxCiRunBytes, maxCiRunPages } from '#contract/ci-run.js';
import { UnauthorizedError } from '../http-errors.js';
import { ErrorResponse, signedIn } from '../plugins/openapi.js';
import { uploadCiRun, type CiRunDeps } from './service.js';

export interface CiRunRoutesOptions {
  deps: CiRunDeps;
}

/** `POST /api/ci-runs`: a CI job's results into the domain's history (`conformly --upload`). */
export const ciRunRoutes: FastifyPluginAsyncZod<CiRunRoutesOptions> = async (app, options) => {
  const { deps } = options;
  // A member signed in, or an API token (access-rules.ts asks for results:upload); anonymous
  // callers get a 401 before their body is read.
  app.addHook('preValidation', async (request) => {
    if (!request.caller.organisationId) {
      throw new UnauthorizedError(
        'Send an API token with the results:upload scope (Authorization: Bearer), or log in',
      );
    }
  });
  app.post(
    '/api/ci-runs',
    {
      // The pages' JSON without screenshots or raw engine output: a few hundred KB a page.
      bodyLimit: maxCiRunBytes,
      schema: {
        tags: ['Domains'],
        security: signedIn,
        operationId: 'uploadCiRun',
        summary: "Store a CI job's scan results as a run in its domain's history",
        description:
          'The body holds the pages `conformly scan --format json` writes (at most ' +
          `${maxCiRunPages} pages, ${maxCiRunBytes / 1024 / 1024} MB) and where the run came ` +
          "from. The run joins the audits of the organisation's monitored domain its pages are " +
          'on (or the one named in `domain`), compared with the last run of the branch a pull ' +
          "request merges into, else the same branch's, else the last monitoring audit. An API " +
          'token needs the `results:upload` scope.',
        body: CiRunUpload,
        response: {
          201: CiRunResponse,
          404: ErrorResponse.meta({
            description: 'The organisation does not monitor that domain.',
          }),
          413: ErrorResponse.meta({ description: 'The upload is larger than the limit.' }),
        },
      },
    },
    async (request, reply) => {
      const stored = await uploadCiRun(deps, request.caller.organisationId!, request.body);
      return reply.code(201).send(stored);
    },
  );
};
