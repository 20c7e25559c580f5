// The homepage hit path taken by the listening server before routing: a fresh cached page comes
// straight from the render cache; redirects, misses and other routes still go through the app.

import { beforeAll, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();
let base: string;
beforeAll(() => {
  base = ctx.listen();
});

test("a cached homepage is served from the hit path with the same bytes and headers", async () => {
  const first = await fetch(`${base}/`, { headers: { "accept-encoding": "br" }, decompress: false } as RequestInit);
  expect(first.headers.get("x-cache")).toBe("MISS");
  const firstBody = brotliDecompressSync(Buffer.from(await first.arrayBuffer())).toString();
  const second = await fetch(`${base}/`, { headers: { "accept-encoding": "br" }, decompress: false } as RequestInit);
  expect(second.status).toBe(200);
  expect(second.headers.get("x-cache")).toBe("HIT");
  expect(second.headers.get("content-encoding")).toBe("br");
  expect(second.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
  expect(brotliDecompressSync(Buffer.from(await second.arrayBuffer())).toString()).toBe(firstBody);
  const notModified = await fetch(`${base}/`, { headers: { "if-none-match": second.headers.get("etag")! } });
  expect(notModified.status).toBe(304);
});

test("a non-canonical query is still redirected, and other routes still answer", async () => {
  const redirected = await fetch(`${base}/?dn=night,day&q=`, { redirect: "manual" });
  expect(redirected.status).toBe(302);
  expect(redirected.headers.get("location")).toBe("/?dn=day%2Cnight");
  expect((await fetch(`${base}/no-such-page`)).status).toBe(404);
});
