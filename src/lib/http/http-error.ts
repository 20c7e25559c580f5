// The errors a handler may throw with a message that is safe to show and its HTTP status. They live
// apart from the error handler (errors.ts) so the body readers in responses.ts can throw them too.

/** An error whose message is safe to show, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** A missing resource (404). */
export class NotFoundError extends HttpError {
  constructor(message = "Not found") {
    super(404, message);
    this.name = "NotFoundError";
  }
}

/** Invalid input with per-field issues (400). */
export class ValidationError extends HttpError {
  constructor(
    message: string,
    readonly issues: { field: string; message: string }[] = [],
  ) {
    super(400, message);
    this.name = "ValidationError";
  }
}
