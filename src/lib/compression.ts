// Precompressed bodies and their ETags, for everything served as prepared bytes: the render cache,
// the static pages and the static assets. One place decides the encodings offered, how a client's
// Accept-Encoding picks one, and how an ETag is derived from the bytes.

import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { memoised } from "./memo.ts";

export type Encoding = "br" | "gzip" | "identity";

/** A view typed as backed by a plain ArrayBuffer (what Response and Blob take). */
export function asBytes(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/** Brotli at `quality` (11 for bytes kept for the process's life, 6 for renders that expire). */
export function brotli(identity: Uint8Array, quality: number): Uint8Array<ArrayBuffer> {
  return asBytes(brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength } }));
}

/**
 * Gzip at `level` (9 for bytes kept for the process's life, 6 for renders that expire, 1 for a
 * render miss's own answer). Bun's native gzip: the same format as node:zlib's, without its stream
 * machinery, which cost more than the compression itself on a small page.
 */
export function gzip(identity: Uint8Array, level: CompressionLevel): Uint8Array<ArrayBuffer> {
  return asBytes(Bun.gzipSync(asBytes(identity), { level }));
}

/** The levels this service compresses at: 1 (fastest), 6 (default) and 9 (smallest). */
export type CompressionLevel = 1 | 6 | 9;

/**
 * Both compressions of bytes kept for the process's life, each made on its first use at the
 * highest level: compressing everything up front would cost a start before its first page.
 */
export function lazyCompressed(identity: Uint8Array): { br: () => Uint8Array<ArrayBuffer>; gzip: () => Uint8Array<ArrayBuffer> } {
  let br: Uint8Array<ArrayBuffer> | undefined;
  let gz: Uint8Array<ArrayBuffer> | undefined;
  return { br: () => (br ??= brotli(identity, 11)), gzip: () => (gz ??= gzip(identity, 9)) };
}

/**
 * The ETag of a body: a quoted 64-bit hash (wyhash, Bun.hash) of its uncompressed bytes with their
 * length. An ETag only has to tell two versions of one URL apart, and every instance derives the
 * same one from the same bytes; SHA-1 cost a render miss about 25 µs on a 40 KB page, this 2 µs.
 */
export function contentEtag(identity: Uint8Array): string {
  return `"${identity.byteLength.toString(36)}-${Bun.hash.wyhash(identity).toString(36)}"`;
}

// Browsers send a handful of Accept-Encoding values: each is read once.
const encodingOf = memoised(256, readEncoding);

/** Picks the encoding a client accepts: brotli, then gzip, else identity. */
export function pickEncoding(acceptEncoding: string | null): Encoding {
  return encodingOf(acceptEncoding ?? "").kept;
}

/**
 * The encoding of a body compressed for one answer only (a render miss): gzip when the client
 * takes it, as every browser does, since gzip at its fastest level costs a fraction of brotli's
 * here; else what pickEncoding picks. Bodies kept and sent again stay brotli (smaller).
 */
export function pickOnceEncoding(acceptEncoding: string | null): Encoding {
  return encodingOf(acceptEncoding ?? "").once;
}

function readEncoding(acceptEncoding: string): { kept: Encoding; once: Encoding } {
  const accept = acceptEncoding.toLowerCase();
  const allows = (name: string) => {
    const match = accept.match(new RegExp(`(?:^|,)\\s*${name}\\s*(?:;\\s*q=([0-9.]+))?`));
    return match !== null && (match[1] === undefined || Number(match[1]) > 0);
  };
  const gzipAllowed = allows("gzip");
  const kept: Encoding = allows("br") ? "br" : gzipAllowed ? "gzip" : "identity";
  return { kept, once: gzipAllowed ? "gzip" : kept };
}
