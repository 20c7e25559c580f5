// Paths that cannot be read (see docs/public-pages.md, "Unreadable addresses"): a path that is not
// valid percent-encoded UTF-8 (`%`, `%C3%28`, `%E0%A4%A`, an overlong `%C0%AF`, an encoded
// surrogate), or that encodes a NUL, names nothing the service holds. It is refused before any
// route reads it: a JSON 400 on the API, the 404 page for a page (a share link that cannot be read
// names no event). Never a 500, and nothing is logged. A query string is read leniently instead: a
// bad escape in a parameter is kept as the literal text (Elysia's reading), so odd parameters are
// ignored or clamped like any other garbage value.

import { Elysia } from "elysia";
import { HttpError } from "./http-error.ts";

/** True when the path of `url` is not valid percent-encoded UTF-8, or encodes a NUL. */
export function isUnreadablePath(url: string): boolean {
  const percent = url.indexOf("%");
  if (percent === -1) return false;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return false;
  let end = url.length;
  for (const mark of ["?", "#"]) {
    const at = url.indexOf(mark, start);
    if (at !== -1 && at < end) end = at;
  }
  const path = url.slice(start, end);
  if (!path.includes("%")) return false;
  try {
    return decodeURIComponent(path).includes("\0");
  } catch {
    return true;
  }
}

/** The message of the API's refusal. */
export const UNREADABLE_PATH_MESSAGE = "Malformed percent-encoding in the path";

/** The refusal of a request whose path cannot be read, or undefined when it can (`basePath`: NEXT_PUBLIC_BASE_PATH). */
export function unreadablePathError(request: Request, basePath = ""): HttpError | undefined {
  if (!isUnreadablePath(request.url)) return undefined;
  const api = new URL(request.url).pathname.startsWith(`${basePath}/api/`);
  return api ? new HttpError(400, UNREADABLE_PATH_MESSAGE) : new HttpError(404, "Not found");
}

/** Refuses unreadable paths before any route (answered by the error handler). */
export function urlEncodingCheck(basePath = "") {
  return new Elysia({ name: "url-encoding-check", seed: basePath }).onRequest(({ request }) => {
    const error = unreadablePathError(request, basePath);
    if (error) throw error;
  });
}
