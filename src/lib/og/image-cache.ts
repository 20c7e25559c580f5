// Rendered link-preview images kept in memory by normalised parameters: a bounded LRU (entries and
// bytes) with one render per key at a time, so a crawler burst for one preview costs one render.

import { createHash } from "node:crypto";

/** One cached image. */
export interface CachedImage {
  png: Uint8Array<ArrayBuffer>;
  etag: string;
}

export interface OgImageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
}

export interface OgImageCache {
  /** The image of `key`, refreshed as most recently used; undefined when not cached. */
  get(key: string): CachedImage | undefined;
  /**
   * The image of `key`, rendering it when missing. Concurrent calls for one key share a render;
   * a failed render is not kept.
   */
  load(key: string, render: () => Promise<Uint8Array>): Promise<CachedImage>;
  size(): number;
  bytes(): number;
}

/** Wraps PNG bytes with their ETag. */
export function cachedImage(png: Uint8Array): CachedImage {
  const bytes = new Uint8Array(png.buffer as ArrayBuffer, png.byteOffset, png.byteLength);
  return { png: bytes, etag: `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 22)}"` };
}

/** Builds an empty cache (defaults: 256 images, 48 MiB). */
export function createOgImageCache(options: OgImageCacheOptions = {}): OgImageCache {
  const maxEntries = options.maxEntries ?? 256;
  const maxBytes = options.maxBytes ?? 48 * 1024 * 1024;
  const entries = new Map<string, CachedImage>();
  const pending = new Map<string, Promise<CachedImage>>();
  let total = 0;

  function store(key: string, image: CachedImage): void {
    const old = entries.get(key);
    if (old) total -= old.png.byteLength;
    entries.delete(key);
    entries.set(key, image);
    total += image.png.byteLength;
    // Oldest first: a Map iterates in insertion order and every hit re-inserts its key.
    for (const [oldest, value] of entries) {
      if (entries.size <= maxEntries && total <= maxBytes) break;
      entries.delete(oldest);
      total -= value.png.byteLength;
    }
  }

  return {
    get(key) {
      const image = entries.get(key);
      if (image) {
        entries.delete(key);
        entries.set(key, image);
      }
      return image;
    },
    load(key, render) {
      const cached = this.get(key);
      if (cached) return Promise.resolve(cached);
      let inFlight = pending.get(key);
      if (!inFlight) {
        inFlight = render().then((png) => {
          const image = cachedImage(png);
          store(key, image);
          return image;
        });
        pending.set(key, inFlight);
        const clear = () => pending.delete(key);
        inFlight.then(clear, clear);
      }
      return inFlight;
    },
    size: () => entries.size,
    bytes: () => total,
  };
}
