// Shared HTTP response helpers: no-store headers, JSON and HTML responses.

/** The no-store header set (docs/README.md, "Words used throughout"): auth, admin, tracking, submissions, partner, cron, deploy. */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "private, no-store, no-cache, max-age=0, must-revalidate, proxy-revalidate",
  pragma: "no-cache",
  expires: "0",
};

/** Server-wide request body cap (bytes). */
export const MAX_BODY_BYTES = 1024 * 1024;

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

/** Reads a JSON body without throwing: `undefined` when absent or malformed. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    const text = await request.text();
    if (!text) return undefined;
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True for a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
