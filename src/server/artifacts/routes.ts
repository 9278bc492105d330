import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDb } from '#db/client.js';
import { ShareTokenQuery } from '#contract/index.js';
import { findArtifact, findArtifactAccess } from '#db/stores/artifacts.js';
import { NotFoundError } from '../http-errors.js';
import { emptyResponse, fileResponse } from '../plugins/openapi.js';
import { mayRead, privateNoStore } from '../scans/access.js';

export interface ArtifactRoutesOptions {
  db: AppDb;
}

const ArtifactParams = z.strictObject({ id: z.uuid('Artifact id must be a UUID') });

/**
 * Files scans produced (screenshots, archives, reports), served from the database so any server
 * can answer, to whoever may read the scan or audit they came from (scans/access.ts; a scan's
 * share link opens its files too). A public one never changes after it is written, so browsers
 * and caches may keep it for good; a private one is kept by nobody.
 */
export const artifactRoutes: FastifyPluginAsyncZod<ArtifactRoutesOptions> = async (
  app,
  options,
) => {
  const schema = {
    operationId: 'getArtifact',
    summary: 'A file a scan or an audit produced (screenshot, ZIP archive)',
    description: 'Readable by whoever may read its scan or audit; `share` is the share token.',
    tags: ['Files'],
    params: ArtifactParams,
    querystring: ShareTokenQuery,
    response: {
      200: fileResponse('The file.', ['image/jpeg', 'application/zip']),
      304: emptyResponse('The copy the caller holds (If-None-Match) is current.'),
    },
  };
  app.get('/api/artifacts/:id', { schema }, async (request, reply) => {
    const { id } = request.params;
    const artifact = await findArtifact(options.db, id);
    const access = artifact && (await findArtifactAccess(options.db, artifact));
    if (
      !artifact ||
      !access ||
      !(await mayRead(options.db, access, request.caller, access.scanId, request.query.share))
    ) {
      throw new NotFoundError('File not found.');
    }
    if (!access.isPublic) {
      reply.header('cache-control', privateNoStore);
    } else {
      const etag = `"${id}"`;
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
    }
    reply
      .header('content-type', artifact.mimeType)
      .header('content-length', artifact.byteSize)
      .header('x-content-type-options', 'nosniff');
    if (artifact.kind !== 'screenshot' && artifact.fileName) {
      reply.header(
        'content-disposition',
        `attachment; filename="${artifact.fileName.replace(/[^\w.-]/g, '_')}"`,
      );
    }
    return reply.send(artifact.bytes);
  });
};
