// Shared HTTP response helpers: no-store headers, JSON and HTML responses.

import { HttpError, ValidationError } from "./http-error.ts";
import type { Refused, Refusal } from "../outcome.ts";

// Every answer no cache may keep takes one of the three header sets below: the directive is
// written here only (a test refuses it anywhere else in src), so the three stay told apart by name.
const NO_STORE = "no-store";

/** The no-store header set (docs/README.md, "Words used throughout"): auth, admin, tracking, submissions, partner, cron, deploy. */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": `private, ${NO_STORE}, no-cache, max-age=0, must-revalidate, proxy-revalidate`,
  pragma: "no-cache",
  expires: "0",
};

/** An answer made for one request of one visitor (a page at a preview minute, the image limiter's refusal): kept by no cache, shared or private. */
export const PRIVATE_NO_STORE_HEADERS = { "cache-control": `private, ${NO_STORE}` } as const;

/** An answer made for this request alone (an error page, a redirect, a page that could not be cached): kept by no cache. */
export const PER_REQUEST_HEADERS = { "cache-control": NO_STORE } as const;

/** Server-wide request body cap (bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The Retry-After (seconds) of a 503 answered while the database is down: about when the
 * breaker's probe will have found it again after a short outage (docs/operations.md, "When the
 * database is down").
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The Retry-After header of a 503 while the database is down. */
export const UNAVAILABLE_HEADERS: Readonly<Record<string, string>> = { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) };

/** A JSON response with the given status and extra headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** A JSON response that must never be cached. */
export function jsonNoStore(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return json(body, status, { ...NO_STORE_HEADERS, ...headers });
}

/** Markup from a JSX view; views are synchronous, so a Promise here is a programming error. */
export function markup(view: string | Promise<string>): string {
  if (typeof view !== "string") throw new TypeError("Views must render synchronously");
  return view;
}

/** An HTML response from markup or a JSX view. */
export function html(body: string | Promise<string>, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(markup(body), { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
}

/**
 * An htmx answer that is never stored (the console's cards, private forms): HTML, `Vary:
 * HX-Request` (the same URL also answers the full page) and the no-store headers.
 */
export function privateFragment(body: string | Promise<string>, status = 200, headers: Record<string, string> = {}): Response {
  return html(body, status, { vary: "HX-Request", ...NO_STORE_HEADERS, ...headers });
}

/** The text of a JSON body parsed, or `undefined` when absent, empty or malformed. */
function parseJsonText(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a JSON body without throwing: `undefined` when absent or malformed. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return parseJsonText(await request.text());
  } catch {
    return undefined;
  }
}

/** Reads a JSON object body; an empty body is `{}`, a malformed one or anything not an object is a 400. */
export async function readObjectBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") return {};
  const body = parseJsonText(text);
  if (body === undefined) throw new HttpError(400, "Invalid request payload");
  if (!isPlainObject(body)) throw new ValidationError("Invalid request body", [{ field: "body", message: "Send a JSON object" }]);
  return body;
}

const STATUS_OF_REFUSAL: Readonly<Record<Refusal, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  limited: 429,
  unavailable: 503,
  failed: 500,
};

/** The HTTP status of a refusal (the one mapping, for JSON answers, HTML pages and fragments alike). */
export function statusOf(reason: Refusal): number {
  return STATUS_OF_REFUSAL[reason];
}

/**
 * The status of a refusal answered by re-rendering a form with its errors: invalid input is 422
 * (the page itself is fine, the fields are not), every other refusal keeps its own status.
 */
export function formStatusOf(reason: Refusal): number {
  return reason === "invalid" ? 422 : statusOf(reason);
}

/** When a refused request may be tried again: a limit's own wait, the database's short outage, or not said. */
function retryAfterOf(refusal: Pick<Refused, "reason"> & { retryAfter?: unknown }): Record<string, string> {
  if (refusal.reason === "limited" && typeof refusal.retryAfter === "number") return { "retry-after": String(refusal.retryAfter) };
  if (refusal.reason === "unavailable") return { ...UNAVAILABLE_HEADERS };
  return {};
}

/** Headers a refusal carries: never cached, and "unavailable" or "limited" tell the client when to try again. */
export function refusalHeaders(refusal: Refusal | (Pick<Refused, "reason"> & { retryAfter?: unknown })): Record<string, string> {
  return { ...NO_STORE_HEADERS, ...retryAfterOf(typeof refusal === "string" ? { reason: refusal } : refusal) };
}

/**
 * The HTML page of a refusal: the view with the refusal's status and `headers` (a limit's
 * Retry-After added). Pages choose their own caching headers, so none are added here.
 */
export function refusalPage(refusal: Pick<Refused, "reason"> & { retryAfter?: unknown }, body: string | Promise<string>, headers: Record<string, string> = {}): Response {
  return html(body, statusOf(refusal.reason), { ...headers, ...retryAfterOf(refusal) });
}

/** The htmx fragment of a refusal: never stored, with the refusal's status (see `privateFragment`). */
export function refusalFragment(refusal: Pick<Refused, "reason"> & { retryAfter?: unknown }, body: string | Promise<string>, headers: Record<string, string> = {}): Response {
  return privateFragment(body, statusOf(refusal.reason), { ...headers, ...retryAfterOf(refusal) });
}

/**
 * The body of every JSON refusal (docs/README.md, "Words used throughout"): `{success:false, error}`
 * and what else the caller needs to show it (issues, a report, conflicts). Every refusal the API
 * answers is built here, so the shape has one home.
 */
export function refusalBody(error: string, extra: object = {}): Record<string, unknown> {
  return { success: false, error, ...extra };
}

/** A JSON refusal with its status and extra headers, never cached. */
export function refusalAnswer(status: number, error: string, extra: object = {}, headers: Record<string, string> = {}): Response {
  return jsonNoStore(refusalBody(error, extra), status, headers);
}

/**
 * The JSON answer of a refusal: `{success:false, error, ...}` with its status, never cached; what
 * else the refusal carries (conflicts, issues, a report) goes into the body as it is.
 */
export function refusalJson(refusal: Refused & object): Response {
  const { ok: _ok, reason, error, ...extra } = refusal as Refused & { retryAfter?: unknown };
  // A limit's wait is told by its Retry-After header, not in the body.
  if (reason === "limited") delete (extra as { retryAfter?: unknown }).retryAfter;
  return refusalAnswer(statusOf(reason), error, extra, refusalHeaders(refusal));
}

/** The JSON answer of an outcome: `{success:true, ...}` with what it carries, or its refusal. */
export function outcomeJson<T extends object>(outcome: ({ ok: true } & T) | (Refused & object)): Response {
  if (!outcome.ok) return refusalJson(outcome);
  const { ok: _ok, ...body } = outcome;
  return jsonNoStore({ success: true, ...body });
}

/**
 * Why a request is refused before any lib function is asked: the request itself is not one the
 * endpoint takes, whatever it says.
 */
export type RequestRefusal =
  /** No credential, or one that opens nothing. */
  | "unauthorized"
  /** Sent by another site's page (CSRF): the visitor did not mean it. */
  | "cross_site"
  /** The body is not of a type the endpoint reads. */
  | "unsupported_media"
  /** The body is over the endpoint's cap. */
  | "too_large";

const STATUS_OF_REQUEST_REFUSAL: Readonly<Record<RequestRefusal, number>> = {
  unauthorized: 401,
  cross_site: 403,
  unsupported_media: 415,
  too_large: 413,
};

/** The JSON answer of a request-level refusal, with the endpoint's own message. */
export function requestRefusalJson(reason: RequestRefusal, error: string): Response {
  return refusalAnswer(STATUS_OF_REQUEST_REFUSAL[reason], error);
}

/** The 429 of a rate limit: the message and when (seconds) the caller may try again. */
export function rateLimitedJson(error: string, retryAfterSeconds: number): Response {
  return refusalAnswer(429, error, {}, { "retry-after": String(retryAfterSeconds) });
}

/** True for a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Buffers a body of at most `maxBytes` and returns a request carrying it (to hand to the usual
 * readers); "too_large" as soon as the declared length or the bytes read pass the cap, so an
 * over-long chunked body is not read to its end.
 */
export async function withBodyCap(request: Request, maxBytes: number): Promise<Request | "too_large"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return "too_large";
  if (!request.body) return request;
  // A body that breaks off is read as what arrived; the readers then see it as malformed.
  const body = await readCapped(request.body, maxBytes, true);
  if (body === "too_large") return body;
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

/**
 * Reads a stream to its end as one byte array, or "too_large" as soon as it passes `maxBytes`
 * (the stream is then cancelled, so an over-long body is not read to its end). A stream that
 * breaks off throws, or with `keepPartial` gives what arrived.
 */
export async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number, keepPartial = false): Promise<Uint8Array<ArrayBuffer> | "too_large"> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return "too_large";
      }
      chunks.push(value);
    }
  } catch (error) {
    if (!keepPartial) throw error;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A refused field of a request, named for the answer. */
export type FieldIssue = { field: string; message: string };

/**
 * A whole-number query parameter from `min` to `max` (`fallback` when absent); a bad value is
 * named in `issues`, never clamped.
 */
export function wholeQueryNumber(query: Record<string, string | undefined>, name: string, range: { min: number; max: number; fallback: number }, issues: FieldIssue[]): number {
  const text = query[name];
  if (text === undefined) return range.fallback;
  if (!/^\d{1,7}$/.test(text) || Number(text) < range.min || Number(text) > range.max) issues.push({ field: name, message: `${name} must be a whole number from ${range.min} to ${range.max}` });
  return Number(text);
}
