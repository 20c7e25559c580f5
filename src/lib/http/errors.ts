// The error classes of the service and the one error handler: JSON under /api, an HTML page for
// full-page requests, a fragment for htmx. Unknown errors are logged and never leak to the client.

import { Elysia } from "elysia";
import type { Logger } from "../logger.ts";
import { PER_REQUEST_HEADERS, refusalAnswer, refusalHeaders, statusOf, UNAVAILABLE_HEADERS } from "./responses.ts";
import type { Refused } from "../outcome.ts";
import { isDatabaseUnreachable } from "../db/errors.ts";

export { HttpError, NotFoundError, ValidationError } from "./http-error.ts";
import { HttpError, ValidationError } from "./http-error.ts";

/**
 * A refusal thrown by a handler that lets the one error handler answer it as JSON, an HTML page or
 * a fragment: its reason's status, its message and what else it carries (issues) in the body.
 */
export class RefusalError extends HttpError {
  /** What the JSON body carries beside the message (issues, a report). */
  readonly extra: Record<string, unknown>;
  constructor(readonly refusal: Refused & object) {
    const { ok: _ok, reason, error, retryAfter: _retryAfter, ...extra } = refusal as Refused & { retryAfter?: unknown };
    const { "cache-control": _c, pragma: _p, expires: _e, ...retry } = refusalHeaders(refusal);
    super(statusOf(reason), error, retry);
    this.name = "RefusalError";
    this.extra = extra;
  }
}

/** Throws the refusal for the error handler to answer: for guards and handlers whose refusal is an error answer. */
export function refuse(refusal: Refused & object): never {
  throw new RefusalError(refusal);
}

/** The value, or (for a refusal) the thrown error the error handler answers: for handlers whose every refusal is an error answer. */
export function unlessRefused<T>(value: T | (Refused & object)): Exclude<T, Refused> {
  if (typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false && typeof (value as { reason?: unknown }).reason === "string") refuse(value as Refused);
  return value as Exclude<T, Refused>;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  413: "Request body too large",
  415: "Unsupported media type",
  422: "Invalid request",
  429: "Too many requests",
  431: "Request headers too large",
  500: "Internal server error",
  503: "Service unavailable",
};

/** The public text for a status. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? "Internal server error" : "Request failed");
}

function isApiPath(request: Request): boolean {
  try {
    return new URL(request.url).pathname.startsWith("/api/");
  } catch {
    return true;
  }
}

/** How HTML errors look; supplied by the pages layer. */
export interface ErrorViews {
  /** `request` tells the view which language the visitor reads. */
  page(status: number, message: string, request: Request): string;
  fragment(status: number, message: string, request: Request): string;
}

const plainViews: ErrorViews = {
  page: (status, message) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>${status}</title><p>${escapeText(message)}</p></html>`,
  fragment: (_status, message) => `<p role="alert">${escapeText(message)}</p>`,
};

function escapeText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Answers an error in the shape the request expects. */
export function errorResponse(request: Request, status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}, views: ErrorViews = plainViews): Response {
  if (isApiPath(request)) return refusalAnswer(status, message, extra, headers);
  const isHtmx = request.headers.get("hx-request") === "true";
  const body = isHtmx ? views.fragment(status, message, request) : views.page(status, message, request);
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...PER_REQUEST_HEADERS, vary: "HX-Request", ...headers } });
}

/**
 * The answer to an error thrown while handling `request` (`code`: Elysia's error code, when it
 * gave one); `headers` are added to it. Unknown errors are logged and answered 500 without detail.
 */
export function errorAnswer(log: Logger, views: ErrorViews, request: Request, error: unknown, code?: string, headers: Record<string, string> = {}): Response {
  const answer = (status: number, message: string, extra: Record<string, unknown> = {}, own: Record<string, string> = {}) => errorResponse(request, status, message, extra, { ...headers, ...own }, views);
  if (error instanceof ValidationError) return answer(400, error.message, { issues: error.issues });
  if (error instanceof RefusalError) return answer(error.status, error.message, error.extra, error.headers);
  if (error instanceof HttpError) return answer(error.status, error.message, {}, error.headers);
  switch (code) {
    case "NOT_FOUND":
      return answer(404, "Not found");
    case "PARSE":
      return answer(400, "Invalid request payload");
    case "VALIDATION":
      // Elysia's validation text echoes submitted values: never forward it.
      return answer(400, "Invalid request");
    case "INVALID_COOKIE_SIGNATURE":
      return answer(400, "Invalid request");
  }
  // The database is down: a 503 the client may retry soon, never a 500 (the breaker's own
  // answer and any refused or reset connection).
  if (isDatabaseUnreachable(error)) return answer(503, "Service temporarily unavailable", {}, { ...UNAVAILABLE_HEADERS });
  const status = typeof (error as { status?: unknown })?.status === "number" ? (error as { status: number }).status : 500;
  if (status >= 400 && status < 500) return answer(status, statusText(status));
  let path = "";
  try {
    path = new URL(request.url).pathname;
  } catch {}
  log.error("http", "Unhandled error", { method: request.method, path, ...(code === undefined ? {} : { code }) }, error);
  return answer(500, "Internal server error");
}

/** The one error handler, as a named plugin applied globally. */
export function errorHandler(log: Logger, views: ErrorViews = plainViews) {
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, request }) => errorAnswer(log, views, request, error, String(code)));
}
