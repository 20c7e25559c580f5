import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { useTestApp } from "../helpers/app.ts";
import { decodePng, distinctColours } from "../helpers/png.ts";
import { ogApi } from "../../src/api/og.ts";
import { errorHandler } from "../../src/lib/http/errors.ts";
import { renderFallbackPng } from "../../src/lib/og/render.ts";
import { SITE_NAME } from "../../src/lib/links.ts";

const ctx = useTestApp();

const IMAGE_CACHE = "public, s-maxage=86400, stale-while-revalidate=604800";
let ip = 0;
/** A request from a client address of its own, so the per-IP guard stays out of the way. */
const get = (path: string, headers: Record<string, string> = {}) => ctx.request(path, { headers: { "x-forwarded-for": `192.0.2.${++ip}`, ...headers } });

async function image(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  expect(res.headers.get("cache-control")).toBe(IMAGE_CACHE);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { ...decodePng(bytes), bytes };
}

describe("GET /api/og", () => {
  test("a 1200×630 PNG with real content; MISS, then HIT from memory, then 304 for its ETag", async () => {
    const first = await get("/api/og?eventCount=42");
    expect(first.headers.get("x-cache")).toBe("MISS");
    const plain = await image(first);
    expect([plain.width, plain.height]).toEqual([1200, 630]);
    expect(distinctColours(plain)).toBeGreaterThan(20);

    // The same normalised parameters (order, blanks, unknown keys) are one cache entry.
    const again = await get("/api/og?utm=x&eventCount=42&title=%20%20");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(Buffer.compare(Buffer.from((await image(again)).bytes), Buffer.from(plain.bytes))).toBe(0);

    const etag = again.headers.get("etag")!;
    const notModified = await get("/api/og?eventCount=42", { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("cache-control")).toBe(IMAGE_CACHE);
  });

  test("the event-modal variant differs from the default one", async () => {
    const query = "title=Canal%20Amapiano%20Sunset&date=Sunday%2021st&time=18%3A00&price=Free&venue=Quai%20de%20Valmy&genres=Amapiano,Afrobeats&arrondissement=10e&eventCount=14";
    const plain = await image(await get(`/api/og?${query}`));
    const event = await image(await get(`/api/og?variant=event-modal&${query}`));
    expect([event.width, event.height]).toEqual([1200, 630]);
    expect(distinctColours(event)).toBeGreaterThan(20);
    expect(Buffer.compare(plain.data, event.data)).not.toBe(0);
  });

  test("markup, 500-character and odd values never fail the image", async () => {
    const markup = encodeURIComponent(`<script>alert("x")</script><img src=x onerror=alert(1)>`);
    const long = encodeURIComponent("Très long nom d'événement ".repeat(20).slice(0, 500));
    const queries = [
      `title=${markup}&subtitle=${markup}&venue=${markup}&genres=${markup},${markup}`,
      `variant=event-modal&title=${long}&subtitle=${long}&date=${long}&time=${long}&price=${long}&venue=${long}&arrondissement=${long}&genres=${long},${long},${long},${long}&eventCount=99999999`,
      "genres=" + ",".repeat(500),
      "eventCount=%00&variant=%3Cx%3E",
      "title=%F0%9F%8E%B6%E2%80%94%C3%A9%20%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82",
      "title=%E0%A4",
    ];
    for (const query of queries) {
      const png = await image(await get(`/api/og?${query}`));
      expect([png.width, png.height]).toEqual([1200, 630]);
      expect(distinctColours(png)).toBeGreaterThan(20);
    }
  });

  test("the 121st request from one IP in an hour → 429 text with private no-store; other IPs still pass", async () => {
    const headers = { "x-forwarded-for": "203.0.113.200" };
    for (let i = 0; i < 120; i++) expect((await ctx.request("/api/og?title=same", { headers })).status).toBe(200);
    const blocked = await ctx.request("/api/og?title=same", { headers });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await blocked.text()).toBe("Rate limit exceeded");
    expect(blocked.headers.get("cache-control")).toBe("private, no-store");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await ctx.request("/api/og?title=same", { headers: { "x-forwarded-for": "203.0.113.201" } })).status).toBe(200);
    // The window is an hour: past it the same address is served again.
    ctx.clock.advance(3600_000 + 1000);
    expect((await ctx.request("/api/og?title=same", { headers })).status).toBe(200);
  });

  test("a failing render answers the fallback image with the same headers, and is not cached", async () => {
    let calls = 0;
    const failing = new Elysia().use(errorHandler(ctx.deps.log)).use(
      ogApi(ctx.deps, {
        render: async () => {
          calls++;
          throw new Error("layout exploded");
        },
      }),
    );
    const send = () => failing.handle(new Request("http://finder.test/api/og?title=x", { headers: { "x-forwarded-for": "198.51.100.1" } }));
    const res = await send();
    const fallback = await image(res);
    expect([fallback.width, fallback.height]).toEqual([1200, 630]);
    expect(Buffer.compare(Buffer.from(fallback.bytes), Buffer.from(renderFallbackPng(SITE_NAME)))).toBe(0);
    expect(distinctColours(fallback)).toBeGreaterThan(2);
    expect(ctx.logs.some((l) => l.line.includes("Image render failed"))).toBe(true);
    await image(await send());
    expect(calls).toBe(2);
  });

  test("a render over its budget answers the fallback; the late result serves the next request", async () => {
    let finish: (png: Uint8Array) => void = () => {};
    const late = new Promise<Uint8Array>((resolve) => (finish = resolve));
    const slow = new Elysia().use(ogApi(ctx.deps, { render: () => late, budgetMs: 30 }));
    const send = () => slow.handle(new Request("http://finder.test/api/og?title=y", { headers: { "x-forwarded-for": "198.51.100.2" } }));
    const first = await image(await send());
    expect(Buffer.compare(Buffer.from(first.bytes), Buffer.from(renderFallbackPng(SITE_NAME)))).toBe(0);
    expect(ctx.logs.some((l) => l.line.includes("exceeded its budget"))).toBe(true);

    const real = (await image(await get("/api/og?title=late"))).bytes;
    finish(real);
    await late;
    const next = await send();
    expect(next.headers.get("x-cache")).toBe("HIT");
    expect(Buffer.compare(Buffer.from((await image(next)).bytes), Buffer.from(real))).toBe(0);
  });
});
