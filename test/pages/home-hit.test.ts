// The homepage hit path taken by the listening server before routing: a fresh cached page comes
// straight from the render cache; redirects, misses and other routes still go through the app.

import { beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { HTMX_HEADERS, useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { LANGUAGES, translate } from "../../src/lib/i18n/index.ts";

const SECURITY_HEADERS = ["content-security-policy", "x-content-type-options", "referrer-policy", "permissions-policy"];
const SHEET = [
  "Title,Curated,Date,Start Time,End Time,Location,Area,Price,Categories,Primary URL,Setting,Notes,Event Key",
  "Canal Night,,2026-06-21,20:00,23:00,Quai de Valmy,10,Free,House,https://a.example,Outdoor,,",
  "Other Night,,2026-06-21,21:00,,Le Club,12,€8,Disco,,Indoor,,",
].join("\n");

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

// Misses are served by the server's route table too (homeFast): the same answer the app gives,
// with the security headers, in the language of the URL, and the app's error answers.
describe("misses served before routing", () => {
  const remote = useTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
  let site: string;
  beforeAll(async () => {
    site = remote.listen();
    const saved = await saveStoreSheet(remote.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: remote.deps.now() });
    if (!saved.ok) throw new Error(saved.error);
  });

  test("a new search is rendered with the security headers, the same bytes as through the app, in the URL's language", async () => {
    const root = remote.config.defaultLanguage;
    const other = LANGUAGES.find((language) => language !== root)!;
    for (const [path, lang] of [["/?q=canal+night", root], [`/${other}/?q=canal+night`, other]] as const) {
      const served = await fetch(`${site}${path}`, { headers: HTMX_HEADERS });
      expect(served.status).toBe(200);
      expect(served.headers.get("x-cache")).toBe("MISS");
      for (const name of SECURITY_HEADERS) expect(served.headers.get(name)).toBeTruthy();
      const body = await served.text();
      expect(body).toContain("Canal Night");
      expect(body).toContain(translate(lang, "home.feed.download"));
      expect(body).not.toContain(translate(lang === root ? other : root, "home.feed.download"));
      // The app's own handling of the same request (asked again, so now kept: a HIT with the same body).
      const throughApp = await remote.request(path, { headers: HTMX_HEADERS });
      expect(await throughApp.text()).toBe(body);
    }
  });

  test("with every source failing and nothing rendered, the notice: 503, Retry-After, no-store, security headers", async () => {
    const saved = await saveStoreSheet(remote.deps.db, "Title,Date\nBroken,someday\n", { updatedBy: "admin-upload", origin: "manual", now: remote.deps.now() });
    expect(saved.ok).toBe(true);
    await remote.deps.invalidation.invalidate({ paths: ["/"] });
    for (const headers of [{}, HTMX_HEADERS]) {
      const answer = await fetch(`${site}/?q=nothing+rendered`, { headers });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("30");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      for (const name of SECURITY_HEADERS) expect(answer.headers.get(name)).toBeTruthy();
      expect(await answer.text()).toContain(translate(remote.config.defaultLanguage, "home.unavailable"));
    }
  });
});
