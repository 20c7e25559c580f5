// Static files: pages link fingerprinted addresses, which answer with a one-year immutable cache and
// precompressed brotli or gzip bytes that decode to the file; plain addresses keep a short cache.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { createTestContext, type TestContext } from "../helpers/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

async function linkedAssets(): Promise<string[]> {
  const html = await (await ctx.request("/")).text();
  return [...html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
}

describe("static files", () => {
  test("the homepage links every static file by a fingerprinted address", async () => {
    const links = await linkedAssets();
    for (const name of ["app.css", "app.js", "vendor/htmx.min.js", "favicon.svg"]) {
      const [base, ext] = [name.slice(0, name.lastIndexOf(".")), name.slice(name.lastIndexOf("."))];
      expect(links.some((link) => new RegExp(`^/static/${base.replace(/[./]/g, "\\$&")}\\.[0-9a-f]{10}\\${ext}$`).test(link))).toBe(true);
    }
  });

  test("a fingerprinted file is immutable for a year and precompressed", async () => {
    const appJs = (await linkedAssets()).find((link) => /^\/static\/app\.[0-9a-f]{10}\.js$/.test(link))!;
    const source = readFileSync(new URL("../../static/app.js", import.meta.url));
    const br = await ctx.request(appJs, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.status).toBe(200);
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).equals(source)).toBe(true);
    const gzip = await ctx.request(appJs, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(source)).toBe(true);
    const plain = await ctx.request(appJs, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(source)).toBe(true);
  });

  test("the plain address still answers, with a short cache; a wrong fingerprint is 404", async () => {
    const plain = await ctx.request("/static/app.js");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400");
    expect((await ctx.request("/static/app.0000000000.js")).status).toBe(404);
  });

  test("every script of the first load (htmx, app.js, my-night.js, offline.js) together stays under 30 KB compressed", async () => {
    const links = (await linkedAssets()).filter((link) => link.endsWith(".js"));
    let total = 0;
    for (const link of links) total += (await (await ctx.request(link, { headers: { "accept-encoding": "br" } })).arrayBuffer()).byteLength;
    expect(links.length).toBe(4);
    expect(total).toBeLessThan(30 * 1024);
  });
});
