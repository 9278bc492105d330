import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { UrlSafetyError } from '#scanner';
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
        // A service we depend on failed (the payment provider's 502): the message is ours, the
        // cause goes to the log.
        if (error.statusCode >= 500 && error.cause !== undefined) {
          request.log.error(
            { err: loggableError(error), url: redactUrl(request.url) },
            'request failed upstream',
          );
        }
        return reply.status(error.statusCode).send({ message: error.message });
      }
      if (error instanceof UrlSafetyError) {
        return reply.status(400).send({ message: error.message });
      }
      if (isMalformedUpload(error)) {
        return reply.status(400).send({
          message: 'The upload is not a valid multipart/form-data body (boundary and parts).',
        });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (body too large, bad JSON, wrong content type).
        return reply.status(status).send({ message: clientMessage(error) });
      }
      request.log.error(
        { err: loggableError(error), url: redactUrl(request.url) },
        'request failed',
      );
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

/**
 * Errors of the multipart parser (busboy) on a malformed body: no boundary, a broken part
 * header, a body that ends mid-part. They carry no status, so without this they would be 500s.
 */
function isMalformedUpload(error: FastifyError): boolean {
  if (error.statusCode !== undefined) return false;
  return /^(Multipart: |Malformed part header|Unexpected end of (form|file)|Unsupported content type)/.test(
    error.message,
  );
}

/** A URL for the log: path only, the query string (e-mail addresses, tokens) replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[redacted]`;
}

/**
 * The error as logged: a failed database query's message lists its parameters (addresses,
 * messages, token hashes), so everything after "params:" is cut, in causes too.
 */
function loggableError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const strip = (text: string) => text.replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]');
  return {
    type: error.name,
    message: strip(error.message),
    stack: error.stack ? strip(error.stack) : undefined,
    code: (error as { code?: unknown }).code,
    ...(error.cause ? { cause: loggableError(error.cause, depth + 1) } : {}),
  };
}
