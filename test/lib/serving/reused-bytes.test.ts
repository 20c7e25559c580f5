// The byte copy the reused buffers rely on (Rendered.transient in src/lib/serving/render-cache.ts):
// a search miss's fragment and its gzip are written into buffers the next search writes over
// (reusedBytes), and the answer is a Response built from a view of them. That is only sound
// because the runtime copies a byte array's bytes into the Response when it is built. These fail
// if it stopped copying (or copied later, when the body is read).

import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { createRenderCache } from "../../../src/lib/serving/render-cache.ts";
import { gzip, reusedBytes } from "../../../src/lib/serving/compression.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";

const encoder = new TextEncoder();

/** `text`'s UTF-8 bytes written into the start of `allocate`'s buffer. */
function written(allocate: (size: number) => Uint8Array<ArrayBuffer>, text: string): Uint8Array<ArrayBuffer> {
  const bytes = encoder.encode(text);
  const out = allocate(bytes.byteLength);
  out.set(bytes);
  return out;
}

describe("a Response built from a reused buffer", () => {
  test("keeps the bytes the buffer held when it was built, whatever is written into the buffer later", async () => {
    const allocate = reusedBytes();
    const first = written(allocate, "first search's fragment");
    const response = new Response(first, { headers: { "content-type": "text/html; charset=utf-8" } });
    const second = written(allocate, "SECOND SEARCH'S FRAGMENT, LONGER");
    // The same buffer, written over.
    expect(second.buffer).toBe(first.buffer);
    expect(new TextDecoder().decode(first)).not.toBe("first search's fragment");
    expect(await response.text()).toBe("first search's fragment");
  });

  test("a clone and a body read as bytes are copies too", async () => {
    const buffer = new Uint8Array(1024).fill(0x61);
    const view = buffer.subarray(0, 100);
    const response = new Response(view);
    const clone = response.clone();
    buffer.fill(0x62);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(100).fill(0x61));
    expect(await clone.text()).toBe("a".repeat(100));
  });

  test("the render cache's answer to a transient miss holds its bytes once the renderer writes the next one", async () => {
    const cache = createRenderCache({ log: createMemoryLogger() });
    const bodies = reusedBytes();
    const gzips = reusedBytes();
    const policy = { revalidate: 300, keepWhenAskedAgain: true };
    const render = (text: string) => () => {
      const body = written(bodies, text);
      const compressed = gzip(encoder.encode(text), 1);
      const out = gzips(compressed.byteLength);
      out.set(compressed);
      return { body, gzip: out, transient: true };
    };
    const plain = (key: string) => cache.serve(new Request(`http://localhost/${key}`), key, policy, render(`fragment of ${key} `.repeat(20)));
    const zipped = (key: string) => cache.serve(new Request(`http://localhost/${key}`, { headers: { "accept-encoding": "gzip" } }), key, policy, render(`fragment of ${key} `.repeat(20)));
    const a = plain("a") as Response;
    const b = zipped("b") as Response;
    expect(b.headers.get("content-encoding")).toBe("gzip");
    // Both renders wrote into the same two buffers; the next ones write over them again.
    plain("c");
    zipped("d");
    expect(await a.text()).toBe("fragment of a ".repeat(20));
    expect(gunzipSync(new Uint8Array(await b.arrayBuffer())).toString()).toBe("fragment of b ".repeat(20));
  });
});
