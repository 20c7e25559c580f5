import { describe, expect, test } from "bun:test";
import { gunzipSync, gzipSync, brotliDecompressSync } from "node:zlib";
import { createRenderCache, pickEncoding, pickOnceEncoding } from "../../../src/lib/serving/render-cache.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { createInvalidationBus } from "../../../src/lib/serving/invalidation.ts";
import { connectInvalidations } from "../../../src/lib/serving/invalidation-channel.ts";
import { openDatabase } from "../../../src/lib/db/client.ts";
import { TEST_DATABASE_URL } from "../../helpers/database.ts";

function setup() {
  let clock = 1_000_000;
  const log = createMemoryLogger();
  const cache = createRenderCache({ log, now: () => clock });
  let renders = 0;
  let fail = false;
  const render = async () => {
    renders++;
    await Bun.sleep(5);
    if (fail) throw new Error("store unavailable");
    return { body: `<p>render ${renders}</p>`, headers: { "x-source": "test" } };
  };
  const get = (key = "/", headers: Record<string, string> = {}) => cache.serve(new Request(`http://x${key}`, { headers }), key, { revalidate: 300, tags: ["home"], vary: ["HX-Request"] }, render);
  return {
    cache,
    log,
    get,
    advance: (s: number) => (clock += s * 1000),
    renders: () => renders,
    setFail: (v: boolean) => (fail = v),
  };
}

describe("render cache", () => {
  test("MISS renders once, then HIT; headers advertise the policy", async () => {
    const t = setup();
    const first = await t.get();
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(await first.text()).toBe("<p>render 1</p>");
    const second = await t.get();
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.text()).toBe("<p>render 1</p>");
    // Browsers revalidate every time; only shared caches may serve a copy while fetching the next.
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-if-error=86400");
    expect(second.headers.get("cdn-cache-control")).toBe("public, max-age=10, stale-while-revalidate=60, stale-if-error=86400");
    expect(second.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    expect(second.headers.get("x-source")).toBe("test");
    expect(t.renders()).toBe(1);
  });

  test("each miss answer has its render's own headers and ETag, the cache's fields and the extra headers winning over the render's", async () => {
    const cache = createRenderCache({ log: createMemoryLogger() });
    const policy = { revalidate: 300, vary: ["HX-Request"] };
    const extra = { "content-security-policy": "default-src 'self'" };
    const miss = (n: number) =>
      cache.serve(new Request(`http://x/?q=${n}`, { headers: { "accept-encoding": "gzip" } }), `/?q=${n}`, policy, async () => ({
        body: `<p>search ${n}</p>`,
        headers: { "hx-push-url": `/?q=${n}`, "content-type": "application/json", "cache-control": "no-store", "x-cache": "MINE", "content-security-policy": "none" },
      }), extra);
    const answers = [await miss(1), await miss(2), await miss(1)];
    const etags = answers.map((answer) => answer.headers.get("etag"));
    expect(etags[0]).not.toBe(etags[1]);
    expect(etags[2]).toBe(etags[0]);
    for (const [i, n] of [1, 2, 1].entries()) {
      const answer = answers[i]!;
      expect(answer.headers.get("x-cache")).toBe(i === 2 ? "HIT" : "MISS");
      expect(answer.headers.get("hx-push-url")).toBe(`/?q=${n}`);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-if-error=86400");
      expect(answer.headers.get("content-security-policy")).toBe("default-src 'self'");
      expect(answer.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
      expect(answer.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()).toBe(`<p>search ${n}</p>`);
    }
  });

  test("a render that returns at once is answered at once, kept as a render that waits would be; one that throws rejects", async () => {
    const cache = createRenderCache({ log: createMemoryLogger() });
    const policy = { revalidate: 300, keepWhenAskedAgain: true };
    let renders = 0;
    let generation: number | undefined;
    const render = () => ({ body: `<p>at once ${++renders}</p>`, generation });
    const get = (key: string) => cache.serve(new Request(`http://x${key}`), key, policy, render);
    const first = get("/?q=a");
    expect(first).toBeInstanceOf(Response);
    expect((first as Response).headers.get("x-cache")).toBe("MISS");
    expect(await (first as Response).text()).toBe("<p>at once 1</p>");
    // Asked once: not kept; asked again: kept, then a hit.
    expect(cache.size()).toBe(0);
    expect(await (get("/?q=a") as Response).text()).toBe("<p>at once 2</p>");
    expect(cache.size()).toBe(1);
    const third = get("/?q=a") as Response;
    expect(third.headers.get("x-cache")).toBe("HIT");
    expect(await third.text()).toBe("<p>at once 2</p>");
    // A render whose data was read before the latest invalidation is answered, never kept.
    generation = cache.generation();
    cache.invalidate({ paths: ["/"] });
    get("/?q=b");
    expect(await (get("/?q=b") as Response).text()).toBe("<p>at once 4</p>");
    expect(cache.size()).toBe(0);
    // A render failing at once is a rejected answer, as a failing render that waits is.
    const failing = cache.serve(new Request("http://x/?q=c"), "/?q=c", policy, () => {
      throw new Error("store unavailable");
    });
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing as Promise<Response>).rejects.toThrow("store unavailable");
    // A request for a key whose render is under way joins it, even when its own would come at once.
    let finish: (rendered: { body: string }) => void = () => {};
    const waiting = cache.serve(new Request("http://x/?q=d"), "/?q=d", policy, () => new Promise((resolve) => (finish = resolve)));
    const joining = cache.serve(new Request("http://x/?q=d"), "/?q=d", policy, render);
    expect(joining).toBeInstanceOf(Promise);
    finish({ body: "<p>waited</p>" });
    expect(await (await waiting).text()).toBe("<p>waited</p>");
    expect(await (await joining).text()).toBe("<p>waited</p>");
  });

  test("a render in reused buffers (transient): answered right, and an entry kept from it, by a miss or a regeneration, keeps its own bytes", async () => {
    let clock = 1_000_000;
    const cache = createRenderCache({ log: createMemoryLogger(), now: () => clock });
    const shared = new Uint8Array(64);
    let renders = 0;
    // Every render writes into the same buffer, as a search fragment answered at once does.
    const render = (text: string) => () => {
      const bytes = new TextEncoder().encode(`${text} #${++renders}`);
      shared.fill(0);
      shared.set(bytes);
      return { body: shared.subarray(0, bytes.byteLength), transient: true };
    };
    const get = (key: string) => cache.serve(new Request(`http://x${key}`, { headers: { "accept-encoding": "identity" } }), key, { revalidate: 300 }, render(key)) as Response;
    expect(await get("/a").text()).toBe("/a #1");
    for (const key of ["/b", "/c-longer-than-a"]) expect(await get(key).text()).toBe(`${key} #${renders}`);
    expect(get("/a").headers.get("x-cache")).toBe("HIT");
    expect(await get("/a").text()).toBe("/a #1");
    // Stale: served, and regenerated at once from reused buffers; later renders leave it whole.
    clock += 301_000;
    expect(get("/a").headers.get("x-cache")).toBe("STALE");
    await cache.settle();
    const regenerated = `/a #${renders}`;
    for (const key of ["/d", "/e-much-longer-than-the-others"]) await get(key).text();
    expect(await get("/a").text()).toBe(regenerated);
  });

  test("a hit shares the cached bytes and headers but a caller changing its response changes nothing cached", async () => {
    const t = setup();
    await t.get();
    const first = await t.get("/", { "accept-encoding": "br" });
    first.headers.set("x-source", "changed");
    first.headers.set("set-cookie", "a=1");
    expect(brotliDecompressSync(Buffer.from(await first.arrayBuffer())).toString()).toBe("<p>render 1</p>");
    const second = await t.get("/", { "accept-encoding": "br" });
    expect(second.headers.get("x-source")).toBe("test");
    expect(second.headers.get("set-cookie")).toBeNull();
    expect(brotliDecompressSync(Buffer.from(await second.arrayBuffer())).toString()).toBe("<p>render 1</p>");
  });

  test("every hit carries the whole body, read in any order; HEAD has the headers and no body", async () => {
    const t = setup();
    await t.get();
    const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => t.get("/", i % 2 ? { "accept-encoding": "gzip" } : {})));
    const bodies = await Promise.all(hits.reverse().map(async (res) => (res.headers.get("content-encoding") === "gzip" ? gunzipSync(Buffer.from(await res.arrayBuffer())).toString() : res.text())));
    expect(new Set(bodies)).toEqual(new Set(["<p>render 1</p>"]));
    expect(hits.every((res) => res.headers.get("x-cache") === "HIT")).toBe(true);
    const head = await t.cache.serve(new Request("http://x/", { method: "HEAD" }), "/", { revalidate: 300, tags: ["home"], vary: ["HX-Request"] }, async () => ({ body: "unused" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("x-source")).toBe("test");
    expect(await head.text()).toBe("");
    expect(await (await t.get()).text()).toBe("<p>render 1</p>");
  });

  test("no stampede: 50 concurrent misses render once", async () => {
    const t = setup();
    const responses = await Promise.all(Array.from({ length: 50 }, () => t.get()));
    expect(t.renders()).toBe(1);
    expect(new Set(await Promise.all(responses.map((r) => r.text())))).toEqual(new Set(["<p>render 1</p>"]));
  });

  test("a key kept only when asked again: the first ask renders and keeps nothing, the second is kept, the third is a hit", async () => {
    const t = setup();
    const search = { revalidate: 300, tags: ["home"], vary: ["HX-Request"], keepWhenAskedAgain: true };
    const get = (key: string) => t.cache.serve(new Request(`http://x${key}`), key, search, async () => ({ body: `<p>${key}</p>` }));
    const first = await get("/?q=kompa");
    expect([first.headers.get("x-cache"), await first.text()]).toEqual(["MISS", "<p>/?q=kompa</p>"]);
    expect(t.cache.size()).toBe(0);
    expect((await get("/?q=kompa")).headers.get("x-cache")).toBe("MISS");
    expect(t.cache.size()).toBe(1);
    expect((await get("/?q=kompa")).headers.get("x-cache")).toBe("HIT");
    // Other one-off keys leave nothing behind; a key without the rule is kept at once.
    for (let i = 0; i < 20; i++) await get(`/?q=one-off-${i}`);
    expect(t.cache.size()).toBe(1);
    await t.get("/?g=house");
    expect(t.cache.size()).toBe(2);
  });

  test("a key kept only when asked again is kept when a second request joins its first render", async () => {
    const t = setup();
    const search = { revalidate: 300, tags: ["home"], keepWhenAskedAgain: true };
    const get = () => t.cache.serve(new Request("http://x/?q=jazz"), "/?q=jazz", search, async () => (await Bun.sleep(5), { body: "<p>jazz</p>" }));
    const answers = await Promise.all([get(), get()]);
    expect(answers.map((r) => r.headers.get("x-cache"))).toEqual(["MISS", "MISS"]);
    expect((await get()).headers.get("x-cache")).toBe("HIT");
  });

  test("STALE is served at once while one background regeneration runs; then fresh", async () => {
    const t = setup();
    await t.get();
    t.advance(301);
    const stale = await Promise.all([t.get(), t.get(), t.get()]);
    expect(stale.map((r) => r.headers.get("x-cache"))).toEqual(["STALE", "STALE", "STALE"]);
    expect(await stale[0].text()).toBe("<p>render 1</p>");
    await t.cache.settle();
    expect(t.renders()).toBe(2);
    const fresh = await t.get();
    expect(fresh.headers.get("x-cache")).toBe("HIT");
    expect(await fresh.text()).toBe("<p>render 2</p>");
  });

  test("a failed regeneration keeps serving the previous render and is logged", async () => {
    const t = setup();
    await t.get();
    t.advance(301);
    t.setFail(true);
    await t.get();
    await t.cache.settle();
    const after = await t.get();
    expect(await after.text()).toBe("<p>render 1</p>");
    expect(t.log.lines.some((l) => l.level === "error" && l.line.includes("Background regeneration failed"))).toBe(true);
  });

  test("a failed first render throws and caches nothing", async () => {
    const t = setup();
    t.setFail(true);
    await expect(t.get()).rejects.toThrow("store unavailable");
    t.setFail(false);
    expect((await t.get()).headers.get("x-cache")).toBe("MISS");
  });

  test("invalidation by path drops every variant; by tag drops tagged entries", async () => {
    const t = setup();
    await t.get("/");
    await t.get("/?g=house");
    await t.get("/feature-event");
    expect(t.cache.invalidate({ paths: ["/"] })).toBe(2);
    expect((await t.get("/?g=house")).headers.get("x-cache")).toBe("MISS");
    expect((await t.get("/feature-event")).headers.get("x-cache")).toBe("HIT");
    expect(t.cache.invalidate({ tags: ["home"] })).toBe(2);
    expect(t.cache.size()).toBe(0);
  });

  test("precompressed bodies by Accept-Encoding; identity only when asked; 304 on a matching ETag", async () => {
    const t = setup();
    await t.get();
    const br = await t.get("/", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe("<p>render 1</p>");
    const gz = await t.get("/", { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe("<p>render 1</p>");
    const plain = await t.get("/", { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const etag = plain.headers.get("etag")!;
    expect((await t.get("/", { "if-none-match": etag })).status).toBe(304);
  });

  test("a miss answers compressed in the asked encoding, and every later hit too", async () => {
    const t = setup();
    for (const [encoding, decode] of [["br", brotliDecompressSync], ["gzip", gunzipSync]] as const) {
      const key = `/?e=${encoding}`;
      const miss = await t.get(key, { "accept-encoding": encoding });
      expect([miss.headers.get("x-cache"), miss.headers.get("content-encoding")]).toEqual(["MISS", encoding]);
      const body = decode(Buffer.from(await miss.arrayBuffer())).toString();
      expect(body).toMatch(/^<p>render \d+<\/p>$/);
      for (let i = 0; i < 2; i++) {
        const hit = await t.get(key, { "accept-encoding": encoding });
        expect([hit.headers.get("x-cache"), hit.headers.get("content-encoding")]).toEqual(["HIT", encoding]);
        expect(decode(Buffer.from(await hit.arrayBuffer())).toString()).toBe(body);
      }
    }
  });

  test("a render that brings its own gzip: a miss in gzip sends those very bytes; identity and brotli clients get theirs", async () => {
    const cache = createRenderCache({ log: createMemoryLogger() });
    const body = "<p>spliced</p>";
    // Marked so the test sees whose gzip was sent: the render's (level 9, here) or one made by the cache.
    const own = new Uint8Array(gzipSync(body, { level: 9 }));
    own[4] = 42; // the gzip header's MTIME byte, which decoders ignore
    const render = async () => ({ body, gzip: own });
    const get = (key: string, encoding: string) => cache.serve(new Request(`http://x${key}`, { headers: { "accept-encoding": encoding } }), key, { revalidate: 300 }, render);
    const gzipped = await get("/?own=1", "gzip, br");
    expect([gzipped.headers.get("x-cache"), gzipped.headers.get("content-encoding")]).toEqual(["MISS", "gzip"]);
    expect(new Uint8Array(await gzipped.arrayBuffer())).toEqual(own);
    const plain = await get("/?own=2", "identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(body);
    const brotli = await get("/?own=3", "br");
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(body);
  });

  test("a miss taking gzip or brotli answers in gzip (compressed for that answer alone); the hits that follow get brotli", async () => {
    const t = setup();
    const browser = { "accept-encoding": "gzip, deflate, br, zstd" };
    const miss = await t.get("/?e=browser", browser);
    expect([miss.headers.get("x-cache"), miss.headers.get("content-encoding")]).toEqual(["MISS", "gzip"]);
    const body = gunzipSync(Buffer.from(await miss.arrayBuffer())).toString();
    expect(body).toMatch(/^<p>render \d+<\/p>$/);
    const hit = await t.get("/?e=browser", browser);
    expect([hit.headers.get("x-cache"), hit.headers.get("content-encoding")]).toEqual(["HIT", "br"]);
    expect(brotliDecompressSync(Buffer.from(await hit.arrayBuffer())).toString()).toBe(body);
  });

  test("a render whose data was read before the latest invalidation is served but not kept, on a miss or a regeneration", async () => {
    let clock = 1_000_000;
    const cache = createRenderCache({ log: createMemoryLogger(), now: () => clock });
    const policy = { revalidate: 300, tags: ["home"] };
    // Data read now, then an invalidation, then renders made from that data (a read reused by misses).
    let readAt = cache.generation();
    let renders = 0;
    const render = async () => ({ body: `<p>render ${++renders}</p>`, generation: readAt });
    const get = (key: string) => cache.serve(new Request(`http://x${key}`), key, policy, render);
    cache.invalidate({ paths: ["/"] });
    const stale = await get("/?q=a");
    expect(stale.headers.get("x-cache")).toBe("MISS");
    expect(await stale.text()).toBe("<p>render 1</p>");
    expect(cache.size()).toBe(0);
    // Data read since the invalidation is kept.
    readAt = cache.generation();
    await get("/?q=a");
    expect((await get("/?q=a")).headers.get("x-cache")).toBe("HIT");
    // A stale entry regenerated from data older than an invalidation (of another path) keeps the previous render.
    const before = readAt;
    cache.invalidate({ paths: ["/other"] });
    readAt = before;
    clock += 301_000;
    expect((await get("/?q=a")).headers.get("x-cache")).toBe("STALE");
    await cache.settle();
    expect(await (await get("/?q=a")).text()).toBe("<p>render 2</p>");
  });

  test.each([
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["deflate", "identity"],
    [null, "identity"],
  ])("pickEncoding(%p) = %s", (header, expected) => {
    expect(pickEncoding(header as string | null)).toBe(expected as "br");
  });

  test.each([
    ["gzip, deflate, br, zstd", "gzip"],
    ["br", "br"],
    ["br, gzip;q=0", "br"],
    ["deflate", "identity"],
    [null, "identity"],
  ])("pickOnceEncoding(%p) = %s", (header, expected) => {
    expect(pickOnceEncoding(header as string | null)).toBe(expected as "gzip");
  });

  test("invalidations reach other instances over LISTEN/NOTIFY (Postgres server) or stay local (PGlite)", async () => {
    const a = await openDatabase(TEST_DATABASE_URL ? { url: TEST_DATABASE_URL } : {});
    const b = TEST_DATABASE_URL ? await openDatabase({ url: TEST_DATABASE_URL }) : a;
    const log = createMemoryLogger();
    const busA = createInvalidationBus();
    const busB = createInvalidationBus();
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const stopA = await connectInvalidations(a, busA, (i) => seenA.push(i), log);
    const stopB = await connectInvalidations(b, busB, (i) => seenB.push(i), log);
    await busA.invalidate({ paths: ["/"], tags: ["sliding-banner"] });
    const deadline = Date.now() + 3000;
    while (TEST_DATABASE_URL && seenB.length === 0 && Date.now() < deadline) await Bun.sleep(20);
    expect(seenA).toEqual([{ paths: ["/"], tags: ["sliding-banner"] }]);
    expect(seenB).toEqual(TEST_DATABASE_URL ? [{ paths: ["/"], tags: ["sliding-banner"] }] : []);
    await stopA();
    await stopB();
    await a.close();
    if (b !== a) await b.close();
  });
});
