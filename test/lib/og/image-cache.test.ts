import { describe, expect, test } from "bun:test";
import { createOgImageCache } from "../../../src/lib/og/image-cache.ts";

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe("OG image cache", () => {
  test("one render per key, shared by concurrent callers", async () => {
    const cache = createOgImageCache();
    let renders = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const render = async () => {
      renders++;
      await gate;
      return bytes(10);
    };
    const all = Promise.all([cache.load("a", render), cache.load("a", render), cache.load("a", render)]);
    release();
    const images = await all;
    expect(renders).toBe(1);
    expect(new Set(images).size).toBe(1);
    expect(cache.get("a")?.etag).toMatch(/^"[\w-]+"$/);
  });

  test("a failed render is not kept: the next load tries again", async () => {
    const cache = createOgImageCache();
    await expect(cache.load("a", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(cache.get("a")).toBeUndefined();
    expect((await cache.load("a", async () => bytes(3))).png.byteLength).toBe(3);
  });

  test("least recently used entries go first, bounded by count and by bytes", async () => {
    const cache = createOgImageCache({ maxEntries: 2, maxBytes: 100 });
    await cache.load("a", async () => bytes(10));
    await cache.load("b", async () => bytes(10));
    cache.get("a"); // a is now the most recent
    await cache.load("c", async () => bytes(10));
    expect([cache.get("a") !== undefined, cache.get("b") !== undefined, cache.get("c") !== undefined]).toEqual([true, false, true]);
    await cache.load("big", async () => bytes(95));
    expect(cache.size()).toBe(1);
    expect(cache.bytes()).toBe(95);
  });
});
