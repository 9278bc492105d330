import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { UrlSafetyError } from '../../scanner/index.js';
import { HttpError } from '../http-errors.js';

/**
 * One error handler for the whole app: JSON `{message}` always; 4xx with a message a person can
 * act on for bad input; 5xx never carries internals (they are logged with the request instead).
 */
export const errorsPlugin = fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const problems = error.validation.map((issue) => {
          const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          return field ? `${field}: ${issue.message}` : issue.message;
        });
        return reply.status(400).send({ message: problems.join('; ') });
      }
      if (error instanceof HttpError) {
        return reply.status(error.statusCode).send({ message: error.message });
      }
      if (error instanceof UrlSafetyError) {
        return reply.status(400).send({ message: error.message });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (body too large, bad JSON, wrong content type).
        return reply.status(status).send({ message: clientMessage(error) });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Something went wrong on our side.' });
    });
  },
  { name: 'errors' },
);

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as JSON (Content-Type: application/json).';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON object.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      return error.message;
  }
}
