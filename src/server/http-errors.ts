/**
 * The service's error vocabulary. Services throw these; the error handler (plugins/errors.ts)
 * turns each into its status and `{message}`. Anything else is a 500 whose details stay in the log.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** The caller is not signed in, or their credentials are wrong. */
export class UnauthorizedError extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(message: string) {
    super(429, message);
  }
}

/** A service we depend on (the payment provider) failed or answered something we cannot read. */
export class BadGatewayError extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}

/** The service behind a call is not able to answer now (e.g. a scan that takes too long). */
export class UnavailableError extends HttpError {
  constructor(message: string) {
    super(503, message);
  }
}
