// Decodes PNG bytes for tests (pngjs): dimensions and pixel data.

import { PNG } from "pngjs";

/** Decodes a PNG; throws when the bytes are not a valid PNG. */
export function decodePng(bytes: Uint8Array): { width: number; height: number; data: Buffer } {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, data: png.data };
}

/** Number of distinct RGBA colours among sampled pixels (a blank image has one). */
export function distinctColours(image: { data: Buffer }, step = 997): number {
  const seen = new Set<number>();
  for (let i = 0; i + 3 < image.data.length; i += 4 * step) seen.add(image.data.readUInt32BE(i));
  return seen.size;
}
