// Behind a real shared cache (docs/operations.md, "Behind a shared cache"): nginx (Debian
// package; .ci/run installs it) with proxy_cache in front of the service, two processes on one
// Postgres with TEST_DATABASE_URL, one process on its embedded PGlite without. Both languages are
// cached, no page ever comes out in the wrong language whatever the visitor's headers and
// cookies, and a publish through one instance is visible through the cache within the documented
// time (and on the other instance's next miss).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { publishTitle, startEdge, type Edge } from "../helpers/edge.ts";
import { SHARED_CACHE_SECONDS } from "../../src/lib/serving/render-cache.ts";

let edge: Edge;

beforeAll(async () => {
  edge = await startEdge({ databaseUrl: TEST_DATABASE_URL, instances: 2 });
}, 120_000);

afterAll(async () => {
  await edge?.stop();
}, 30_000);

const VISITORS: Record<string, string>[] = [
  {},
  { "accept-language": "en-US,en;q=0.9" },
  { "accept-language": "fr-FR" },
  { cookie: "finder_session=abc; theme=dark" },
  { "accept-language": "de", cookie: "x=1" },
];

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${edge.url}${path}`, { headers });
  return { res, body: await res.text(), edge: res.headers.get("x-edge-cache") };
}

describe(`the service behind nginx proxy_cache (${TEST_DATABASE_URL ? "two processes on one Postgres" : "one process on PGlite"})`, () => {
  test("French and English pages are both cached, and no wrong-language page ever comes out", async () => {
    for (const path of ["/", "/en/", "/?g=house", "/en/?g=house", "/submit-event", "/en/submit-event"]) {
      const english = path.startsWith("/en");
      let hits = 0;
      for (let round = 0; round < 3; round++) {
        for (const headers of VISITORS) {
          const { res, body, edge: state } = await get(path, headers);
          expect(res.status).toBe(200);
          expect({ path, lang: /<html lang="(\w+)"/.exec(body)?.[1] }).toEqual({ path, lang: english ? "en" : "fr" });
          if (state === "HIT") hits++;
        }
      }
      expect({ path, cached: hits > 0 }).toEqual({ path, cached: true });
    }
    // Fragments share their page's URL and are told apart by HX-Request, in each language.
    for (const path of ["/?g=house", "/en/?g=house"]) {
      for (let round = 0; round < 2; round++) {
        const fragment = await get(path, { "hx-request": "true" });
        expect(fragment.body).not.toContain("<html");
        expect(fragment.res.headers.get("hx-push-url")).toBe(path);
        const page = await get(path);
        expect(page.body).toContain(`<html lang="${path.startsWith("/en") ? "en" : "fr"}">`);
      }
    }
  }, 60_000);

  test("old links reach the service and are redirected, never answered from the cache", async () => {
    for (let round = 0; round < 2; round++) {
      const query = await fetch(`${edge.url}/submit-event?lang=en`, { redirect: "manual" });
      expect(query.status).toBe(302);
      expect(query.headers.get("location")).toBe("/en/submit-event");
      const cookie = await fetch(`${edge.url}/`, { headers: { cookie: "lang=en" }, redirect: "manual" });
      expect(cookie.status).toBe(302);
      expect(cookie.headers.get("location")).toBe("/en/");
    }
  });

  test("a publish through one instance is served through the cache within the documented time", async () => {
    const title = `Edge Check ${Date.now().toString(36)}`;
    // Both pages are in the cache before the publish.
    for (const path of ["/", "/en/"]) {
      await get(path);
      expect((await get(path)).edge).toBe("HIT");
    }
    // The other instance has a read of its own in hand (a search miss just now): its misses may share
    // it for 250 ms, never past the publish's invalidation (docs/live-events.md, "What a read costs").
    if (edge.services[1]) await fetch(`${edge.services[1].url}/?q=before-${title.length}`, { headers: { "hx-request": "true" } });
    await publishTitle(edge.services[0]!, title);
    if (edge.services[1]) {
      // The other instance's misses serve it within 1 s, and no render of the old sheet outlives
      // that (its render cache was told through the database): the same search, asked again.
      const deadline = Date.now() + 1_000;
      let seen = false;
      while (!seen && Date.now() < deadline) {
        seen = (await (await fetch(`${edge.services[1].url}/?q=${encodeURIComponent(title)}`)).text()).includes(title);
        if (!seen) await Bun.sleep(100);
      }
      expect(seen).toBe(true);
    }
    // Through the cache: within s-maxage, plus one background refresh; polled with a generous bound.
    for (const path of ["/", "/en/"]) {
      const deadline = Date.now() + (SHARED_CACHE_SECONDS + 20) * 1000;
      let body = "";
      while (Date.now() < deadline) {
        body = (await get(path)).body;
        if (body.includes(title)) break;
        await Bun.sleep(250);
      }
      expect({ path, visible: body.includes(title) }).toEqual({ path, visible: true });
    }
  }, 90_000);
});
