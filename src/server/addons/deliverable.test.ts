import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-errors.js';
import { assertOnSale } from './deliverable.js';
import { catalogue } from './service.js';

describe('AI add-ons are sold only with an AI endpoint', () => {
  it('leaves the AI product out of the catalogue when no AI endpoint is configured', () => {
    expect(catalogue({ aiConfigured: false }).map((entry) => entry.id)).not.toContain(
      'pdf-ai-summary',
    );
    expect(catalogue({}).map((entry) => entry.id)).toHaveLength(7);
    expect(catalogue({ aiConfigured: true }).map((entry) => entry.id)).toContain('pdf-ai-summary');
  });

  it('refuses to sell it with a 400 that says why', () => {
    let refused: unknown;
    try {
      assertOnSale('pdf-ai-summary', false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(400);
    expect((refused as Error).message).toContain('no AI assistant configured');
    expect(() => assertOnSale('pdf-ai-summary', true)).not.toThrow();
    expect(() => assertOnSale('json-3-engines', false)).not.toThrow();
  });
});
