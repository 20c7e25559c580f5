import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createTestContext, type TestContext } from "../helpers/app.ts";
import { decodePng, distinctColours } from "../helpers/png.ts";
import { ogApi } from "../../src/api/og.ts";
import { errorHandler } from "../../src/lib/errors.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const IMAGE_CACHE = "public, s-maxage=86400, stale-while-revalidate=604800";

async function image(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  expect(res.headers.get("cache-control")).toBe(IMAGE_CACHE);
  return decodePng(new Uint8Array(await res.arrayBuffer()));
}

describe("GET /api/og", () => {
  test("a 1200×630 PNG with real content, default and event-modal", async () => {
    const plain = await image(await ctx.request("/api/og"));
    expect([plain.width, plain.height]).toEqual([1200, 630]);
    expect(distinctColours(plain)).toBeGreaterThan(20);
    const event = await image(await ctx.request("/api/og?variant=event-modal&title=Canal%20Amapiano%20Sunset&date=Sunday%2021st&time=18%3A00&price=Free&venue=Quai%20de%20Valmy&genres=Amapiano,Afrobeats&arrondissement=10e&eventCount=14"));
    expect([event.width, event.height]).toEqual([1200, 630]);
    expect(Buffer.compare(plain.data, event.data)).not.toBe(0);
  });

  test("hostile and oversized text never fails the image", async () => {
    const long = encodeURIComponent("<script>alert(1)</script> ".repeat(40));
    for (const query of [`title=${long}&subtitle=${long}&venue=${long}`, "genres=" + ",".repeat(500), "eventCount=%00", "title=%F0%9F%8E%B6%E2%80%94%C3%A9"]) {
      const png = await image(await ctx.request(`/api/og?${query}`));
      expect([png.width, png.height]).toEqual([1200, 630]);
    }
  });

  test("the 121st request from one IP in an hour → 429 text with private no-store", async () => {
    const headers = { "x-forwarded-for": "203.0.113.200" };
    for (let i = 0; i < 120; i++) expect((await ctx.request("/api/og?title=same", { headers })).status).toBe(200);
    const blocked = await ctx.request("/api/og?title=same", { headers });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toBe("Rate limit exceeded");
    expect(blocked.headers.get("cache-control")).toBe("private, no-store");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await ctx.request("/api/og?title=same", { headers: { "x-forwarded-for": "203.0.113.201" } })).status).toBe(200);
  });

  test("a failing or slow render answers the fallback image with the same headers", async () => {
    const failing = new Elysia().use(errorHandler(ctx.deps.log)).use(ogApi(ctx.deps, { render: async () => { throw new Error("layout exploded"); } }));
    const fallback = await image(await failing.handle(new Request("http://finder.test/api/og?title=x", { headers: { "x-forwarded-for": "198.51.100.1" } })));
    expect([fallback.width, fallback.height]).toEqual([1200, 630]);
    expect(distinctColours(fallback)).toBeGreaterThan(2);

    const slow = new Elysia().use(ogApi(ctx.deps, { render: () => new Promise(() => {}), budgetMs: 50 }));
    const late = await image(await slow.handle(new Request("http://finder.test/api/og?title=y", { headers: { "x-forwarded-for": "198.51.100.2" } })));
    expect(late.width).toBe(1200);
    expect(ctx.logs.some((l) => l.line.includes("exceeded its budget"))).toBe(true);
  });
});
