// The render cache: rendered responses kept as precompressed bytes with stale-while-revalidate,
// one regeneration at a time per entry, no stampede on a miss, and invalidation by path or tag.
// A failed regeneration keeps serving the previous render (see docs/public-pages.md, "Render cache").

import { asBytes, brotli, contentEtag, gzip, pickEncoding, pickOnceEncoding, type CompressionLevel, type Encoding } from "./compression.ts";
import type { Logger } from "../logger.ts";
import type { Invalidation } from "./invalidation.ts";
import { createDoorkeeper, type Doorkeeper } from "../memo/doorkeeper.ts";

/** What a render produces. Only successful renders are cached: a render that fails must throw. */
export interface Rendered {
  /** The body: text, or its UTF-8 bytes (kept as they are: never changed after the render). */
  body: string | Uint8Array<ArrayBuffer>;
  /**
   * The body in gzip, when the render made it along with the body (a search's fragment, spliced
   * from its template's compressed parts): a miss answers with it instead of compressing the body.
   */
  gzip?: Uint8Array<ArrayBuffer>;
  /**
   * True when `body` and `gzip` are views of buffers the renderer writes its next render into (a
   * search miss answered at once, so no buffer is allocated for a fragment nobody asks for again).
   * They hold until the renderer's next render: such a render must be returned at once (never
   * through a promise), and the cache copies the bytes of any entry it keeps. A miss's answer
   * is built from them as they are: the runtime copies a byte array's bytes into the Response
   * when it is built (test/lib/serving/reused-bytes.test.ts holds it to that).
   */
  transient?: boolean;
  status?: number;
  headers?: Record<string, string>;
  /**
   * The cache's generation (RenderCache.generation) when the data this render shows was read, when
   * the render reused data read before it started (the live reader's `recent` loads). A render
   * whose data is older than the latest invalidation is served to its request but never kept.
   * Without it the data counts as read when the render started.
   */
  generation?: number;
}

/**
 * A render stamped with the generation of the read it shows (Rendered.generation): a render of a
 * read from the saved list (generation -1, during a database stall) is then never kept.
 */
export function renderedFromRead(read: { generation: number }, rendered: Rendered): Rendered {
  return { ...rendered, generation: read.generation };
}

/** How one route caches. */
export interface CachePolicy {
  /** Seconds a render stays fresh. */
  revalidate: number;
  /** Tags for group invalidation (e.g. "sliding-banner"). */
  tags?: string[];
  /** Extra Vary values (e.g. "HX-Request"); Accept-Encoding is always added. */
  vary?: string[];
  /**
   * Keep a render only once its key has been asked a second time (the cache's doorkeeper remembers
   * the keys asked once; a request that joins a render under way counts): for keys most of which
   * are asked once, such as searches. A one-off is rendered and answered, and leaves nothing behind.
   */
  keepWhenAskedAgain?: boolean;
}

interface Entry {
  path: string;
  status: number;
  headers: Record<string, string>;
  /**
   * The body in each encoding as a Blob (a Response shares a Blob's bytes instead of copying them),
   * each made on its first hit in that encoding, identity included: a search miss is usually asked
   * once, and its own answer is made for it alone (missBody).
   */
  bodies: Partial<Record<Encoding, Blob>>;
  identity: Uint8Array;
  /** The render's own gzip of the body (Rendered.gzip), for a miss's answer. */
  renderedGzip?: Uint8Array<ArrayBuffer>;
  /** `identity` and `renderedGzip` are the renderer's reused buffers (Rendered.transient) until the entry is kept. */
  transient: boolean;
  etag: string;
  createdAt: number;
  policy: CachePolicy;
  regenerating?: Promise<void>;
  /**
   * Response headers per (cache state, encoding, with or without the extra headers), built on first
   * use and reused by every hit; indexed by `headIndex`, so a hit builds no lookup key.
   */
  heads: (Headers | undefined)[];
  /** A response per (state, encoding, extra) that GET hits clone (same index as `heads`); never sent itself. */
  prototypes: (Response | undefined)[];
}

export interface RenderCacheOptions {
  log: Logger;
  now?: () => number;
  /** Most entries kept (least recently used dropped first). */
  maxEntries?: number;
}

/**
 * The shared-cache contract (docs/operations.md, "Behind a shared cache"): a CDN or proxy keeps a
 * render at most this many seconds (s-maxage), whatever the render's own freshness here, so a
 * publish reaches the edge within it; past it the cache may serve its copy while it fetches the
 * next one for up to STALE_WHILE_REVALIDATE seconds, and for a day while the origin fails.
 * Serving while fetching is said to shared caches only (CDN-Cache-Control): a browser honours
 * stale-while-revalidate in Cache-Control too, and would show a visitor its own copy of a page or
 * fragment up to a minute old (a cancellation missed) instead of revalidating it.
 */
export const SHARED_CACHE_SECONDS = 10;
const STALE_WHILE_REVALIDATE = 60;
const STALE_IF_ERROR = 86400;
const encoder = new TextEncoder();

type CacheState = "HIT" | "STALE" | "MISS";

const STATE_INDEX: Readonly<Record<CacheState, number>> = { HIT: 0, STALE: 1, MISS: 2 };
const ENCODING_INDEX: Readonly<Record<Encoding, number>> = { br: 0, gzip: 1, identity: 2 };

/** Where the headers of one (state, encoding, extra) combination sit in `Entry.heads`. */
function headIndex(state: CacheState, encoding: Encoding, extra: boolean): number {
  return STATE_INDEX[state] * 6 + ENCODING_INDEX[encoding] * 2 + (extra ? 1 : 0);
}

/** How a client's Accept-Encoding picks an encoding (kept in compression.ts; re-exported for the routes that import it from here). */
export { pickEncoding, pickOnceEncoding } from "./compression.ts";

/** The cache of one process. */
export interface RenderCache {
  /**
   * Serves `key` from the cache, rendering with `render` when missing (once, whatever the
   * concurrency) and regenerating in the background when stale. A render that returns its result
   * rather than a promise is answered at once (a miss without a wait). `extraHeaders` are added to the
   * answer (the server's own route table adds the security headers this way, as peek does).
   */
  serve(request: Request, key: string, policy: CachePolicy, render: () => Rendered | Promise<Rendered>, extraHeaders?: Readonly<Record<string, string>>): Response | Promise<Response>;
  /**
   * The fresh cached response of `key` (`X-Cache: HIT`), or undefined when it is missing or stale:
   * the hit path a server can take before any routing (see app.ts). `requestHeaders` are the
   * request's headers when the caller already read them (each read of `request.headers` costs).
   */
  peek(request: Request, key: string, policy: CachePolicy, extraHeaders?: Readonly<Record<string, string>>, requestHeaders?: Headers): Response | undefined;
  /** Drops entries of these paths (all variants) and these tags. */
  invalidate(invalidation: Invalidation): number;
  /** Entries currently held. */
  size(): number;
  /** Waits for background regenerations (tests, shutdown). */
  settle(): Promise<void>;
  /** Bumped by every invalidation: what a render's data was read at (Rendered.generation). */
  generation(): number;
}

/** Path part of a cache key ("/?g=house" → "/"). */
function pathOf(key: string): string {
  const q = key.indexOf("?");
  return q === -1 ? key : key.slice(0, q);
}

/** A miss's render under way, shared by every request for its key. */
interface PendingRender {
  entry: Promise<Entry>;
  /** A request for the key came while it rendered. */
  askedAgain: boolean;
}

/** The cache's settings and entries, shared by the steps below. */
interface Cache {
  options: RenderCacheOptions;
  now: () => number;
  maxEntries: number;
  entries: Map<string, Entry>;
  misses: Map<string, PendingRender>;
  /** The keys of `keepWhenAskedAgain` renders asked once. */
  asked: Doorkeeper;
  background: Set<Promise<void>>;
  /** Bumped by every invalidation, so a render whose data was read before one is served but not kept. */
  generation: number;
}

/** Builds a render cache. */
export function createRenderCache(options: RenderCacheOptions): RenderCache {
  const cache: Cache = {
    options,
    now: options.now ?? Date.now,
    maxEntries: options.maxEntries ?? 1000,
    entries: new Map(),
    misses: new Map(),
    asked: createDoorkeeper(),
    background: new Set(),
    generation: 0,
  };
  return {
    serve: (request, key, policy, render, extraHeaders) => serve(cache, request, key, policy, render, extraHeaders),
    peek(request, key, policy, extraHeaders, requestHeaders) {
      const cached = cache.entries.get(key);
      if (cached && cache.now() - cached.createdAt < policy.revalidate * 1000) return respond(request, cached, "HIT", extraHeaders, requestHeaders);
      return undefined;
    },
    invalidate: (invalidation) => invalidate(cache, invalidation),
    size: () => cache.entries.size,
    async settle() {
      while (cache.background.size > 0) await Promise.allSettled([...cache.background]);
    },
    generation: () => cache.generation,
  };
}

/** A fresh entry for a render; its other encodings, headers and responses are built on first use. */
function build(cache: Cache, key: string, rendered: Rendered, policy: CachePolicy): Entry {
  const identity = typeof rendered.body === "string" ? encoder.encode(rendered.body) : rendered.body;
  return {
    path: pathOf(key),
    status: rendered.status ?? 200,
    headers: rendered.headers ?? {},
    bodies: {},
    identity,
    renderedGzip: rendered.gzip,
    transient: rendered.transient === true && typeof rendered.body !== "string",
    etag: contentEtag(identity),
    createdAt: cache.now(),
    policy,
    heads: [],
    prototypes: [],
  };
}

/** Compression level of the bodies kept and served again, and of a miss's own answer (sent once). */
const KEPT_LEVEL = 6;
const MISS_LEVEL = 1;

function compress(identity: Uint8Array, encoding: Encoding, level: CompressionLevel): Uint8Array<ArrayBuffer> {
  return encoding === "gzip" ? gzip(identity, level) : encoding === "br" ? brotli(identity, level) : asBytes(identity);
}

/** The entry's body in one encoding, compressed on first use and kept. */
function bodyOf(entry: Entry, encoding: Encoding): Blob {
  let body = entry.bodies[encoding];
  if (!body) body = entry.bodies[encoding] = new Blob([compress(entry.identity, encoding, KEPT_LEVEL)]);
  return body;
}

/**
 * The body a miss answers with: the kept one when there is one, else the render's own gzip when it
 * made one, else compressed at the fastest level and not kept, in gzip when the client takes it
 * (pickOnceEncoding). Most search misses are asked once, so paying the better level for a body
 * nobody asks for again is waste; the first hit compresses the kept one (bodyOf).
 */
function missBody(entry: Entry, encoding: Encoding): Blob | Uint8Array<ArrayBuffer> {
  return entry.bodies[encoding] ?? (encoding === "gzip" ? entry.renderedGzip : undefined) ?? compress(entry.identity, encoding, MISS_LEVEL);
}

/** Gives an entry bytes of its own in place of a renderer's reused buffers (Rendered.transient). */
function ownBytes(entry: Entry): void {
  if (!entry.transient) return;
  entry.identity = entry.identity.slice();
  entry.renderedGzip = entry.renderedGzip?.slice();
  entry.transient = false;
}

/** Keeps an entry as the most recently used, dropping the least recently used past `maxEntries`. */
function store(cache: Cache, key: string, entry: Entry): void {
  ownBytes(entry);
  const { entries } = cache;
  entries.delete(key);
  entries.set(key, entry);
  while (entries.size > cache.maxEntries) {
    const oldest = entries.keys().next().value;
    if (oldest === undefined) break;
    entries.delete(oldest);
  }
}

// The hit path: no key parsing, no header building, no copy of the body. The headers of each
// (state, encoding) pair are built once per entry as a Headers object, and the body is a Blob,
// whose bytes a Response shares (a byte array is copied into every response). A GET clones a
// response built once from the two: Bun copies a Response's headers natively in a clone, which
// is cheaper than building a Response (about half a microsecond a hit here), and the clone shares
// the Blob. The prototype itself is never sent, so its body is never used up.

/** How long a shared cache may keep this render before it asks again. */
function sharedSeconds(policy: CachePolicy): number {
  return Math.min(policy.revalidate, SHARED_CACHE_SECONDS);
}

/** The response headers of one (state, encoding, extra) combination, built on first use and kept. */
function headsOf(entry: Entry, state: CacheState, encoding: Encoding, extra?: Readonly<Record<string, string>>): Headers {
  const index = headIndex(state, encoding, extra !== undefined);
  let headers = entry.heads[index];
  if (!headers) {
    headers = new Headers(headerFields(sharedSeconds(entry.policy), state, encoding, entry.policy, entry.headers, entry.etag, extra));
    entry.heads[index] = headers;
  }
  return headers;
}

/** The header fields of an answer: the render's own headers, then the cache's, then `extra`. */
function headerFields(seconds: number, state: CacheState, encoding: Encoding, policy: CachePolicy, own: Readonly<Record<string, string>>, etag: string | undefined, extra?: Readonly<Record<string, string>>): Record<string, string> {
  const fields: Record<string, string> = {
    "content-type": "text/html; charset=utf-8",
    ...own,
    "cache-control": `public, max-age=0, s-maxage=${seconds}, stale-if-error=${STALE_IF_ERROR}`,
    "cdn-cache-control": `public, max-age=${seconds}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}, stale-if-error=${STALE_IF_ERROR}`,
    "x-cache": state,
    vary: ["Accept-Encoding", ...(policy.vary ?? [])].join(", "),
  };
  if (etag !== undefined) fields.etag = etag;
  if (encoding !== "identity") fields["content-encoding"] = encoding;
  if (extra) Object.assign(fields, extra);
  return fields;
}

/** The response GET hits of one combination clone, built on first use and kept. */
function prototypeOf(entry: Entry, state: CacheState, encoding: Encoding, extra?: Readonly<Record<string, string>>): Response {
  const index = headIndex(state, encoding, extra !== undefined);
  let prototype = entry.prototypes[index];
  if (!prototype) {
    prototype = new Response(bodyOf(entry, encoding), { status: entry.status, headers: headsOf(entry, state, encoding, extra) });
    entry.prototypes[index] = prototype;
  }
  return prototype;
}

/** Answers from an entry: 304 when the client has it, headers alone for HEAD, else a clone of the prototype. */
function respond(request: Request, entry: Entry, state: CacheState, extra?: Readonly<Record<string, string>>, requestHeaders: Headers = request.headers): Response {
  if (requestHeaders.get("if-none-match") === entry.etag) return new Response(null, { status: 304, headers: headsOf(entry, state, "identity", extra) });
  // A miss's body is compressed for this answer alone (missBody), so it takes the cheaper encoding.
  const encoding = (state === "MISS" ? pickOnceEncoding : pickEncoding)(requestHeaders.get("accept-encoding"));
  if (request.method === "HEAD") return new Response(null, { status: entry.status, headers: headsOf(entry, state, encoding, extra) });
  if (state === "MISS") return missResponse(entry, encoding, extra);
  return prototypeOf(entry, state, encoding, extra).clone();
}

// A miss's answer is usually the only one its entry gives in that state, so its headers are not
// built per entry (headsOf): the fields every miss of a policy shares are built once per (policy,
// encoding, extra), the answer is made with them, and the render's own headers and the ETag are
// set on the answer's copy (cheaper than building a header set from a record per miss).
const NO_EXTRA = {};
const missHeadsKept = new WeakMap<CachePolicy, WeakMap<object, Headers[]>>();

/** The headers every miss answer of `policy` in `encoding` with `extra` shares (headsOf's, without the ETag and the render's own). */
function missHeads(policy: CachePolicy, encoding: Encoding, extra?: Readonly<Record<string, string>>): Headers {
  let perExtra = missHeadsKept.get(policy);
  if (!perExtra) missHeadsKept.set(policy, (perExtra = new WeakMap()));
  let perEncoding = perExtra.get(extra ?? NO_EXTRA);
  if (!perEncoding) perExtra.set(extra ?? NO_EXTRA, (perEncoding = []));
  const index = ENCODING_INDEX[encoding];
  let headers = perEncoding[index];
  if (!headers) {
    headers = perEncoding[index] = new Headers(headerFields(sharedSeconds(policy), "MISS", encoding, policy, {}, undefined, extra));
  }
  return headers;
}

/** A miss's answer: the shared miss headers, then the render's own headers (as headsOf ranks them) and the ETag. */
function missResponse(entry: Entry, encoding: Encoding, extra?: Readonly<Record<string, string>>): Response {
  // Without a status when it is 200 (the default): Bun reads the init faster without it.
  const body = missBody(entry, encoding);
  const heads = missHeads(entry.policy, encoding, extra);
  const response = entry.status === 200 ? new Response(body, { headers: heads }) : new Response(body, { status: entry.status, headers: heads });
  const headers = response.headers;
  for (const name in entry.headers) {
    // The render's own header gives way to the cache's fields and to `extra`, except its content type.
    if (name !== "content-type" && headers.has(name)) continue;
    headers.set(name, entry.headers[name]!);
  }
  headers.set("etag", entry.etag);
  return response;
}

/** `RenderCache.serve`: a fresh entry, else the stale one while it renders again in the background, else a shared miss. */
function serve(cache: Cache, request: Request, key: string, policy: CachePolicy, render: () => Rendered | Promise<Rendered>, extra?: Readonly<Record<string, string>>): Response | Promise<Response> {
  const cached = cache.entries.get(key);
  if (cached) {
    if (cache.now() - cached.createdAt < policy.revalidate * 1000) return respond(request, cached, "HIT", extra);
    regenerate(cache, key, cached, render);
    return respond(request, cached, "STALE", extra);
  }
  return miss(cache, request, key, policy, render, extra);
}

/** Renders a stale entry again in the background (once at a time); a failure keeps serving it. */
function regenerate(cache: Cache, key: string, entry: Entry, render: () => Rendered | Promise<Rendered>): void {
  if (entry.regenerating) return;
  const startedAt = cache.generation;
  const task = (async () => {
    try {
      // A render returned at once is built at once: its bytes may be a renderer's reused buffers.
      const rendering = render();
      const rendered = rendering instanceof Promise ? await rendering : rendering;
      const fresh = build(cache, key, rendered, entry.policy);
      // Only replace what is still cached, from data read since the last invalidation: an invalidation wins.
      if (cache.entries.get(key) === entry && isCurrent(cache, rendered, startedAt)) store(cache, key, fresh);
    } catch (error) {
      cache.options.log.error("render-cache", "Background regeneration failed; serving the previous render", { key }, error);
      // Try again at the next request after another revalidate period, not on every hit.
      entry.createdAt = cache.now();
    } finally {
      entry.regenerating = undefined;
    }
  })();
  entry.regenerating = task;
  cache.background.add(task);
  void task.finally(() => cache.background.delete(task));
}

/**
 * True when a render's data was read since the latest invalidation: read when the render started
 * (`startedAt`, the generation then) or, when the render says so, earlier (Rendered.generation).
 */
function isCurrent(cache: Cache, rendered: Rendered, startedAt: number): boolean {
  return (rendered.generation ?? startedAt) === cache.generation && startedAt === cache.generation;
}

/**
 * Renders a missing entry, one render per key at a time; kept unless its data is older than the
 * latest invalidation, or its policy keeps only keys asked again and this one was asked once. A
 * render that comes back at once (its data was at hand) is answered at once: no promise, no
 * request joining it.
 */
function miss(cache: Cache, request: Request, key: string, policy: CachePolicy, render: () => Rendered | Promise<Rendered>, extra?: Readonly<Record<string, string>>): Response | Promise<Response> {
  const pending = cache.misses.get(key);
  if (pending) {
    pending.askedAgain = true;
    return pending.entry.then((entry) => respond(request, entry, "MISS", extra));
  }
  const startedAt = cache.generation;
  const wanted = !policy.keepWhenAskedAgain || cache.asked.askedBefore(key);
  let rendering: Rendered | Promise<Rendered>;
  try {
    rendering = render();
  } catch (error) {
    return Promise.reject(error);
  }
  if (!(rendering instanceof Promise)) {
    const built = build(cache, key, rendering, policy);
    if (wanted && isCurrent(cache, rendering, startedAt)) store(cache, key, built);
    return respond(request, built, "MISS", extra);
  }
  return missLater(cache, request, key, rendering, { startedAt, wanted, policy }, extra);
}

/** A miss whose render is under way: shared by every request for the key until it is built. */
async function missLater(cache: Cache, request: Request, key: string, rendering: Promise<Rendered>, asked: { startedAt: number; wanted: boolean; policy: CachePolicy }, extra?: Readonly<Record<string, string>>): Promise<Response> {
  let current = false;
  const entry = rendering.then((rendered) => {
    current = isCurrent(cache, rendered, asked.startedAt);
    // Shared by every request joining it, and answered later: never a renderer's reused buffers.
    const built = build(cache, key, rendered, asked.policy);
    ownBytes(built);
    return built;
  });
  const shared: PendingRender = { entry, askedAgain: false };
  cache.misses.set(key, shared);
  const clear = () => cache.misses.delete(key);
  entry.then(clear, clear);
  const built = await entry;
  if (current && cache.generation === asked.startedAt && (asked.wanted || shared.askedAgain)) store(cache, key, built);
  return respond(request, built, "MISS", extra);
}

/** `RenderCache.invalidate`: drops the entries of the paths and tags; returns how many. */
function invalidate(cache: Cache, { paths = [], tags = [] }: Invalidation): number {
  cache.generation++;
  let dropped = 0;
  const pathSet = new Set(paths);
  for (const [key, entry] of cache.entries) {
    if (pathSet.has(entry.path) || (entry.policy.tags ?? []).some((t) => tags.includes(t))) {
      cache.entries.delete(key);
      dropped++;
    }
  }
  return dropped;
}
