import { BadGatewayError } from '../http-errors.js';

/**
 * The payment provider failed: unreachable, an answer that is not its own, or a refusal of our
 * request. Answered 502; callers ask the provider before they write, so nothing is stored. The
 * cause stays in the log (plugins/errors.ts).
 */
export class PaymentProviderError extends BadGatewayError {
  constructor(cause: unknown) {
    super(
      'The payment provider did not answer as expected, so nothing was changed. ' +
        'Please try again in a few minutes.',
    );
    this.cause = cause;
  }
}
