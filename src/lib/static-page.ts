// A fully static page (/privacy, /terms, /robots.txt): rendered once when the routes are built,
// compressed once per encoding (brotli, gzip) on the first request that asks for it, then served
// as the same bytes with a long Cache-Control and an ETag. Compressing every page and language at
// quality 11 when the routes are built cost a start about 0.1 s before its first page.

import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { pickEncoding } from "./render-cache.ts";

/** Browsers keep it a day, shared caches a year: it changes only with a deploy. */
export const STATIC_PAGE_CACHE_CONTROL = "public, max-age=86400, s-maxage=31536000, stale-while-revalidate=604800";

function asBytes(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/** Prepares `html` once and returns the handler that serves it. */
export function createStaticPage(html: string, cacheControl = STATIC_PAGE_CACHE_CONTROL, contentType = "text/html; charset=utf-8", vary = "Accept-Encoding"): (request: Request) => Response {
  const identity = new TextEncoder().encode(html);
  let gzip: Uint8Array<ArrayBuffer> | undefined;
  let br: Uint8Array<ArrayBuffer> | undefined;
  const bodies = {
    identity: () => identity,
    gzip: () => (gzip ??= asBytes(gzipSync(identity, { level: 9 }))),
    br: () => (br ??= asBytes(brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }))),
  };
  const etag = `"${createHash("sha1").update(identity).digest("base64url").slice(0, 20)}"`;
  return (request) => {
    const headers: Record<string, string> = { "content-type": contentType, "cache-control": cacheControl, etag, vary, "x-cache": "HIT" };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    const encoding = pickEncoding(request.headers.get("accept-encoding"));
    if (encoding !== "identity") headers["content-encoding"] = encoding;
    return new Response(request.method === "HEAD" ? null : bodies[encoding](), { headers });
  };
}
