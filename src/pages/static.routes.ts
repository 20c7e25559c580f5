// Static assets under /static: the project's static/ folder plus vendored htmx and Leaflet from
// node_modules. Files are read once and served from memory with an ETag; nothing else is reachable.

import { Elysia } from "elysia";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** Vendored files: public path → file inside node_modules. */
const VENDOR: Record<string, string> = {
  "vendor/htmx.min.js": "node_modules/htmx.org/dist/htmx.min.js",
  "vendor/leaflet.js": "node_modules/leaflet/dist/leaflet.js",
  "vendor/leaflet.css": "node_modules/leaflet/dist/leaflet.css",
  "vendor/images/marker-icon.png": "node_modules/leaflet/dist/images/marker-icon.png",
  "vendor/images/marker-icon-2x.png": "node_modules/leaflet/dist/images/marker-icon-2x.png",
  "vendor/images/marker-shadow.png": "node_modules/leaflet/dist/images/marker-shadow.png",
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

function walk(dir: string, out: string[] = []): string[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

function load(file: string): Asset | undefined {
  const type = TYPES[extname(file)];
  if (!type) return undefined;
  try {
    const body = new Uint8Array(readFileSync(file)) as Uint8Array<ArrayBuffer>;
    return { body, type, etag: `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"` };
  } catch {
    return undefined;
  }
}

/** Loads every static asset into memory. */
export function loadStaticAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const staticDir = join(ROOT, "static");
  for (const file of walk(staticDir)) {
    const asset = load(file);
    if (asset) assets.set(relative(staticDir, file).split("\\").join("/"), asset);
  }
  for (const [path, file] of Object.entries(VENDOR)) {
    const asset = load(join(ROOT, file));
    if (asset) assets.set(path, asset);
  }
  return assets;
}

/** Serves /static/* from memory. */
export function staticRoutes() {
  const assets = loadStaticAssets();
  return new Elysia({ name: "static" }).get("/static/*", ({ params, request }) => {
    const asset = assets.get(params["*"]);
    if (!asset) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    const headers = { "content-type": asset.type, etag: asset.etag, "cache-control": "public, max-age=3600, stale-while-revalidate=86400" };
    if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
    return new Response(asset.body, { headers });
  });
}
