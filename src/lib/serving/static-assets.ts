// Static assets (see docs/public-pages.md, "Static files"): the project's static/ folder plus
// vendored htmx, Leaflet and its marker clusters from node_modules and the arrondissement outlines, read once per process. Each file gets a fingerprinted
// name (`app.3f9c2a1b.js`, from the hash of its bytes) that pages link to and that may be cached for
// a year, and text files are compressed once with brotli and gzip (on first request), so a request only picks
// bytes. Nothing is written to disk and no compressed file is kept in the repository. The browser
// scripts are ES modules: their imports of each other are rewritten to fingerprinted names first
// (static-modules.ts), so an imported file's change reaches the name of every script above it.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { lazyCompressed } from "./compression.ts";
import { siteHref } from "../links.ts";
import { importOrder, moduleImports, rewriteImports, type ModuleImport } from "./static-modules.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** Types worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE: ReadonlySet<string> = new Set([".css", ".js", ".svg", ".json", ".webmanifest", ".txt"]);

/** Vendored files: public path → file inside node_modules (or the project's data folder). */
const VENDOR: Record<string, string> = {
  "vendor/htmx.min.js": "node_modules/htmx.org/dist/htmx.min.js",
  "vendor/leaflet.js": "node_modules/leaflet/dist/leaflet.js",
  "vendor/leaflet.css": "node_modules/leaflet/dist/leaflet.css",
  "vendor/images/marker-icon.png": "node_modules/leaflet/dist/images/marker-icon.png",
  "vendor/images/marker-icon-2x.png": "node_modules/leaflet/dist/images/marker-icon-2x.png",
  "vendor/images/marker-shadow.png": "node_modules/leaflet/dist/images/marker-shadow.png",
  "vendor/leaflet.markercluster.js": "node_modules/leaflet.markercluster/dist/leaflet.markercluster.js",
  "vendor/MarkerCluster.css": "node_modules/leaflet.markercluster/dist/MarkerCluster.css",
  // The arrondissement outlines (data/README.md), fetched by the map only when it opens.
  "data/arrondissements.json": "data/paris-arrondissements.geojson",
};

/** Files served under their plain name only: the service worker must keep one address. */
const UNFINGERPRINTED: ReadonlySet<string> = new Set(["sw.js"]);

/** One static file in memory. */
export interface StaticAsset {
  /** Plain path under /static ("app.js"). */
  path: string;
  /** Fingerprinted path under /static ("app.3f9c2a1b.js"), or the plain one when not fingerprinted. */
  hashedPath: string;
  type: string;
  etag: string;
  identity: Uint8Array<ArrayBuffer>;
  /** A module's direct imports of other static files, as plain paths ("sheet-editor/clipboard.js"). */
  imports: string[];
  br?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

/** Every asset, by plain and by fingerprinted path. */
export interface StaticAssets {
  byPath: Map<string, StaticAsset>;
  byHashedPath: Map<string, StaticAsset>;
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

function read(file: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return new Uint8Array(readFileSync(file)) as Uint8Array<ArrayBuffer>;
  } catch {
    return undefined;
  }
}

function build(path: string, identity: Uint8Array<ArrayBuffer>, imports: string[] = []): StaticAsset | undefined {
  // The type follows the public name (the outlines' .geojson file is served as .json).
  const ext = extname(path);
  const type = TYPES[ext];
  if (!type) return undefined;
  const hash = createHash("sha256").update(identity).digest("hex").slice(0, 10);
  const hashedPath = UNFINGERPRINTED.has(path) ? path : `${path.slice(0, path.length - ext.length)}.${hash}${ext}`;
  const asset: StaticAsset = { path, hashedPath, type, etag: `"${hash}"`, identity, imports };
  if (COMPRESSIBLE.has(ext) && identity.byteLength > 256) {
    // Compressed on the first request for this file, then kept: brotli at quality 11 over every
    // file took about 0.7 s, which a start would otherwise pay before its first page.
    const compressed = lazyCompressed(identity);
    Object.defineProperties(asset, {
      br: { enumerable: true, get: compressed.br },
      gzip: { enumerable: true, get: compressed.gzip },
    });
  }
  return asset;
}

/**
 * The project's scripts under static/ (plain path → bytes), each with its imports rewritten to the
 * fingerprinted names of the files they name, built after those files (see static-modules.ts).
 */
export function fingerprintScripts(sources: ReadonlyMap<string, Uint8Array<ArrayBuffer>>): StaticAsset[] {
  const found = new Map<string, ModuleImport[]>();
  const text = new Map<string, string>();
  for (const [path, bytes] of sources) {
    const source = new TextDecoder().decode(bytes);
    text.set(path, source);
    found.set(path, moduleImports(path, source));
  }
  const built = new Map<string, StaticAsset>();
  for (const path of importOrder(new Map([...found].map(([path, imports]) => [path, imports.map((i) => i.path)])))) {
    const imports = found.get(path)!;
    const bytes = imports.length
      ? (new TextEncoder().encode(rewriteImports(text.get(path)!, imports, (i) => i.specifier.slice(0, i.specifier.lastIndexOf("/") + 1) + posix.basename(built.get(i.path)!.hashedPath))) as Uint8Array<ArrayBuffer>)
      : sources.get(path)!;
    const asset = build(path, bytes, [...new Set(imports.map((i) => i.path))]);
    if (asset) built.set(path, asset);
  }
  return [...built.values()];
}

/** Reads and fingerprints every static asset, once per process (each is compressed on its first request). */
export function loadStaticAssets(): StaticAssets {
  const byPath = new Map<string, StaticAsset>();
  const byHashedPath = new Map<string, StaticAsset>();
  const add = (asset: StaticAsset | undefined) => {
    if (!asset) return;
    byPath.set(asset.path, asset);
    byHashedPath.set(asset.hashedPath, asset);
  };
  const staticDir = join(ROOT, "static");
  const scripts = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const file of walk(staticDir)) {
    const path = relative(staticDir, file).split("\\").join("/");
    const bytes = read(file);
    if (!bytes) continue;
    if (extname(path) === ".js") scripts.set(path, bytes);
    else add(build(path, bytes));
  }
  for (const asset of fingerprintScripts(scripts)) add(asset);
  for (const [path, file] of Object.entries(VENDOR)) {
    const bytes = read(join(ROOT, file));
    if (bytes) add(build(path, bytes));
  }
  return { byPath, byHashedPath };
}

let loaded: StaticAssets | undefined;

/** The process's static assets, loaded on first use. */
export function staticAssets(): StaticAssets {
  loaded ??= loadStaticAssets();
  return loaded;
}

/**
 * The address pages link to for a static file: "/static/app.3f9c2a1b.js" for "app.js". A file
 * that does not exist keeps its plain address (and answers 404).
 */
export function assetUrl(path: string): string {
  const asset = staticAssets().byPath.get(path);
  return siteHref(`/static/${asset ? asset.hashedPath : path}`);
}

/**
 * Every static file a script imports, directly or through another, each once and after the files
 * it imports: what a page that links the script loads besides it (see moduleUrls).
 */
export function moduleImportsOf(path: string, assets: StaticAssets = staticAssets()): string[] {
  const out: string[] = [];
  const visit = (from: string) => {
    for (const target of assets.byPath.get(from)?.imports ?? []) {
      if (out.includes(target)) continue;
      visit(target);
      out.push(target);
    }
  };
  visit(path);
  return out;
}

/**
 * The fingerprinted addresses of every module a script imports (moduleImportsOf): the page writes
 * them beside the script, so static/offline.js can keep them for offline use on the first visit.
 */
export function moduleUrls(path: string): string[] {
  return moduleImportsOf(path).map(assetUrl);
}
