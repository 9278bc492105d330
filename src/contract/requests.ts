import { z } from 'zod';

/**
 * The body of a call that takes no fields (cancel, log out, end a session): none at all (Fastify
 * gives `null` for a POST without one), or `{}` as the web client sends. Anything else is refused with a 400 rather than ignored, so a client
 * that believes it sent an option learns that it was not taken.
 */
export const NoFieldsRequest = z
  .strictObject(
    {},
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `This call takes no fields: ${issue.keys.map((key) => `"${key}"`).join(', ')} ${issue.keys.length === 1 ? 'is' : 'are'} not allowed`
          : 'This call takes no fields: send no body, or an empty JSON object',
    },
  )
  .nullish();
