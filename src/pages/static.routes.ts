// Static assets under /static (see docs/public-pages.md, "Static files"), served from memory
// (src/lib/serving/static-assets.ts). A fingerprinted address ("/static/app.3f9c2a1b.js") never changes
// content and is cached for a year as immutable; the plain address ("/static/app.js") stays for
// old pages and bookmarks with a short cache. Brotli or gzip bytes are sent when the client accepts
// them; nothing else is reachable.

import { Elysia } from "elysia";
import { pickEncoding } from "../lib/serving/render-cache.ts";
import { staticAssets, type StaticAsset } from "../lib/serving/static-assets.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600, stale-while-revalidate=86400";

function answer(request: Request, asset: StaticAsset, cacheControl: string): Response {
  const headers: Record<string, string> = { "content-type": asset.type, etag: asset.etag, "cache-control": cacheControl };
  if (asset.br) headers.vary = "Accept-Encoding";
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const encoding = asset.br ? pickEncoding(request.headers.get("accept-encoding")) : "identity";
  let body = asset.identity;
  if (encoding === "br" && asset.br) body = asset.br;
  else if (encoding === "gzip" && asset.gzip) body = asset.gzip;
  if (body !== asset.identity) headers["content-encoding"] = encoding;
  return new Response(request.method === "HEAD" ? null : body, { headers });
}

/** Serves /static/* from memory. */
export function staticRoutes() {
  const assets = staticAssets();
  return new Elysia({ name: "static" }).get("/static/*", ({ params, request }) => {
    const path = params["*"];
    const hashed = assets.byHashedPath.get(path);
    if (hashed && hashed.hashedPath !== hashed.path) return answer(request, hashed, IMMUTABLE);
    const plain = assets.byPath.get(path);
    if (plain) return answer(request, plain, SHORT);
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  });
}
