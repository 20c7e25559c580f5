// Precompressed bodies and their ETags, for everything served as prepared bytes: the render cache,
// the static pages and the static assets. One place decides the encodings offered, how a client's
// Accept-Encoding picks one, and how an ETag is derived from the bytes.

import { brotliCompressSync, constants as zlibConstants, deflateRawSync } from "node:zlib";
import { memoised } from "../memo/memo.ts";

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

// ---------------------------------------------------------------------------------------------
// Gzip spliced from parts compressed once

/**
 * A fixed part of a body that is sent again and again with different text between its parts (a
 * search's results fragment, results-template.ts), compressed once at the highest level on its
 * own: raw DEFLATE ended with a sync flush, so it stops on a byte boundary without closing the
 * stream, and nothing in it refers back to bytes before it. Parts made this way can be laid one
 * after another, with other blocks between them, in one gzip stream (splicedGzip).
 */
export function deflatedPart(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return asBytes(deflateRawSync(bytes, { level: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH }));
}

// RFC 1952: the magic number, DEFLATE, no flags, no time, no extra flags, unknown system.
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255);
// RFC 1951: a last block, fixed codes, holding only the end-of-block code.
const LAST_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);
// A stored block holds at most 65,535 bytes.
const STORED_MAX = 0xffff;

/**
 * The gzip of `identity`, which is `parts` (made by deflatedPart, in order) with `fill` between
 * each two: the parts as they are, the fill in stored blocks (it is short: a search), then an
 * empty last block and the trailer (the CRC-32 and length of `identity`). Nothing is compressed
 * here, so an answer made this way costs a copy: compressing it whole cost a render miss more than
 * its render (a compressor's state is set up and freed for every call). `allocate` gives the
 * output's bytes (a reused buffer's, for an answer sent at once: see Rendered.transient).
 */
export function splicedGzip(parts: readonly Uint8Array[], fill: Uint8Array, identity: Uint8Array, allocate: (size: number) => Uint8Array<ArrayBuffer> = newBytes): Uint8Array<ArrayBuffer> {
  const storedBlocks = Math.max(1, Math.ceil(fill.byteLength / STORED_MAX));
  const fillSize = fill.byteLength + 5 * storedBlocks;
  let size = GZIP_HEADER.byteLength + LAST_EMPTY_BLOCK.byteLength + 8 + fillSize * (parts.length - 1);
  for (const part of parts) size += part.byteLength;
  const out = allocate(size);
  out.set(GZIP_HEADER, 0);
  let at = GZIP_HEADER.byteLength;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) at = writeStored(out, at, fill, storedBlocks);
    out.set(parts[i]!, at);
    at += parts[i]!.byteLength;
  }
  out.set(LAST_EMPTY_BLOCK, at);
  at += LAST_EMPTY_BLOCK.byteLength;
  // Byte by byte: a DataView needs the array's buffer, which the engine must first set apart for it.
  writeUint32LE(out, at, Bun.hash.crc32(identity));
  writeUint32LE(out, at + 4, identity.byteLength);
  return out;
}

function writeUint32LE(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 0xff;
  out[at + 1] = (value >>> 8) & 0xff;
  out[at + 2] = (value >>> 16) & 0xff;
  out[at + 3] = (value >>> 24) & 0xff;
}

/** A new zero-filled byte array: the default output of the functions that can write into a reused one. */
export function newBytes(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(size);
}

/**
 * An allocator handing out the start of one buffer, grown (doubled) when too small: each call's
 * bytes hold until the next call. For answers sent at once, so that no buffer is allocated for a
 * one-off body (fresh memory for each cost a search miss its page faults and collections).
 */
export function reusedBytes(): (size: number) => Uint8Array<ArrayBuffer> {
  let buffer = new Uint8Array(0);
  return (size) => {
    if (buffer.byteLength < size) buffer = new Uint8Array(Math.max(size, buffer.byteLength * 2, 16_384));
    return buffer.subarray(0, size);
  };
}

/** Writes `bytes` as `blocks` stored blocks (not last) at `at`; the output is byte-aligned there. */
function writeStored(out: Uint8Array, at: number, bytes: Uint8Array, blocks: number): number {
  for (let b = 0; b < blocks; b++) {
    const chunk = blocks === 1 ? bytes : bytes.subarray(b * STORED_MAX, (b + 1) * STORED_MAX);
    const length = chunk.byteLength;
    // Header bits 0 (not last) and 00 (stored), padded to the byte; LEN and its complement, little-endian.
    out[at] = 0;
    out[at + 1] = length & 0xff;
    out[at + 2] = length >>> 8;
    out[at + 3] = ~length & 0xff;
    out[at + 4] = (~length >>> 8) & 0xff;
    out.set(chunk, at + 5);
    at += 5 + length;
  }
  return at;
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
