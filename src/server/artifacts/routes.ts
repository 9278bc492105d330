import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDb } from '#db/client.js';
import { findArtifact } from '#db/stores/artifacts.js';
import { NotFoundError } from '../http-errors.js';

export interface ArtifactRoutesOptions {
  db: AppDb;
}

const ArtifactParams = z.strictObject({ id: z.uuid('Artifact id must be a UUID') });

/**
 * Files scans produced (screenshots, archives, reports), served from the database so any server
 * can answer. An artifact never changes after it is written, so browsers may keep it for good.
 */
export const artifactRoutes: FastifyPluginAsyncZod<ArtifactRoutesOptions> = async (
  app,
  options,
) => {
  app.get('/api/artifacts/:id', { schema: { params: ArtifactParams } }, async (request, reply) => {
    const { id } = request.params;
    const etag = `"${id}"`;
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    const artifact = await findArtifact(options.db, id);
    if (!artifact) throw new NotFoundError('File not found.');
    reply
      .header('content-type', artifact.mimeType)
      .header('content-length', artifact.byteSize)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
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
