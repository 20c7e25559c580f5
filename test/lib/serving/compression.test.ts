// Gzip spliced from parts compressed once (compression.ts) must be a gzip stream every decoder reads
// back to the very bytes of the parts with the fill between them: zlib's own inflater (strict about
// the trailer's CRC-32 and length) and the web platform's DecompressionStream.

import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { deflatedPart, splicedGzip } from "../../../src/lib/serving/compression.ts";

const encoder = new TextEncoder();

function joinedWith(parts: readonly string[], fill: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(parts.join(fill));
}

async function viaDecompressionStream(gzip: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const CASES: { name: string; parts: string[]; fill: string }[] = [
  { name: "html with a search in its links", parts: ['<a href="/?q=', '">x</a><a href="/?g=house&q=', '">y</a>'.repeat(200)], fill: "venue+m12" },
  { name: "one part, no fill", parts: ["<section>nothing between</section>"], fill: "unused" },
  { name: "empty parts at both ends and between", parts: ["", "", "middle", ""], fill: "q" },
  { name: "hostile and non-ASCII fill", parts: ["<p>", "</p><p>", "</p>"], fill: '"><script>alert(1)</script> café €5 — 𝄞' },
  { name: "a fill longer than one stored block", parts: ["head", "tail"], fill: "é".repeat(40_000) },
  { name: "a part longer than the compressor's window", parts: [Array.from({ length: 6000 }, (_, i) => `<li>${i}</li>`).join(""), "end"], fill: "x" },
];

describe("splicedGzip", () => {
  for (const { name, parts, fill } of CASES) {
    test(`${name}: decodes to the parts joined by the fill`, async () => {
      const expected = joinedWith(parts, fill);
      const gzip = splicedGzip(
        parts.map((part) => deflatedPart(encoder.encode(part))),
        encoder.encode(fill),
        expected,
      );
      expect(new Uint8Array(gunzipSync(gzip))).toEqual(expected);
      expect(await viaDecompressionStream(gzip)).toEqual(expected);
    });
  }

  test("a trailer that does not match the bytes is refused by the decoder (the CRC-32 is checked)", () => {
    const parts = ["<p>", "</p>"].map((part) => deflatedPart(encoder.encode(part)));
    const gzip = splicedGzip(parts, encoder.encode("a"), encoder.encode("<p>b</p>"));
    expect(() => gunzipSync(gzip)).toThrow();
  });

  test("the parts are compressed: a repetitive page spliced is far smaller than its bytes", () => {
    const parts = ['<ul class="chips"><li><a class="chip" href="/?g=house&amp;q=', `">House</a></li>${'<li><a class="chip">House</a></li>'.repeat(300)}</ul>`];
    const expected = joinedWith(parts, "jazz");
    const gzip = splicedGzip(parts.map((part) => deflatedPart(encoder.encode(part))), encoder.encode("jazz"), expected);
    expect(gzip.byteLength).toBeLessThan(expected.byteLength / 10);
  });
});
