// The shared-cache contract of the public pages (docs/operations.md, "Behind a shared cache"):
// every public page and fragment, in both languages, varies on Accept-Encoding (and HX-Request
// where a fragment shares its URL) and never on Cookie or Accept-Language; what a cache may keep
// says so with a short s-maxage, and nothing of a signed-in visitor is baked into it.

import { describe, expect, test } from "bun:test";
import { HTMX_HEADERS, useTestApp } from "../helpers/app.ts";
import { setCookie } from "../helpers/auth.ts";
import { SHARED_CACHE_SECONDS } from "../../src/lib/serving/render-cache.ts";

const ctx = useTestApp({ env: { DEFAULT_LANGUAGE: undefined } });

const PAGES = [
  "/",
  "/?g=house",
  "/?q=canal",
  "/?event=evt_fixture000001&slug=canal-amapiano-sunset",
  "/my-night?e=evt_fixture000001,evt_fixture000005",
  "/my-night.ics?e=evt_fixture000001",
  "/submit-event",
  "/feature-event",
  "/feature-event/status",
  "/partner-success",
  "/privacy",
  "/terms",
  "/sign-in",
  "/manifest.webmanifest",
];
/** The htmx fragments that share a page's URL. */
const FRAGMENTS = ["/?g=house", "/?event=evt_fixture000001", "/?p=2", "/feature-event/status", "/sign-in"];
const ALLOWED_VARY = new Set(["accept-encoding", "hx-request"]);

function varyOf(res: Response): string[] {
  return (res.headers.get("vary") ?? "")
    .split(",")
    .map((value) => value.trim().toLowerCase())
    .filter(Boolean);
}

describe("every public page varies on Accept-Encoding (and HX-Request) only", () => {
  for (const prefix of ["", "/en"]) {
    test.each(PAGES)(`${prefix || "(French)"} %s`, async (path) => {
      const res = await ctx.request(`${prefix}${path}`, { headers: { "accept-language": "de", cookie: "theme=dark" } });
      expect(res.status).toBe(200);
      for (const value of varyOf(res)) expect({ path, value, allowed: ALLOWED_VARY.has(value) }).toEqual({ path, value, allowed: true });
      const cacheControl = res.headers.get("cache-control") ?? "";
      if (cacheControl.includes("public") && cacheControl.includes("s-maxage")) {
        // What a shared cache keeps is refreshed within the documented time.
        const sMaxAge = Number(/s-maxage=(\d+)/.exec(cacheControl)?.[1]);
        if (res.headers.get("content-type")?.startsWith("text/html") && !path.startsWith("/privacy") && !path.startsWith("/terms")) expect(sMaxAge).toBeLessThanOrEqual(SHARED_CACHE_SECONDS);
      }
    });

    test.each(FRAGMENTS)(`${prefix || "(French)"} htmx %s`, async (path) => {
      const res = await ctx.request(`${prefix}${path}`, { headers: { ...HTMX_HEADERS, "accept-language": "de" } });
      expect(res.status).toBe(200);
      for (const value of varyOf(res)) expect(ALLOWED_VARY.has(value)).toBe(true);
      expect(varyOf(res)).toContain("hx-request");
    });
  }
});

describe("nothing per visitor in what a cache keeps", () => {
  test("a signed-in visitor's first request renders the same page everyone gets: no name, no email, no session", async () => {
    const signIn = await ctx.request("/en/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://finder.test", ...HTMX_HEADERS },
      body: new URLSearchParams({ email: "zora.cache@example.com", firstName: "Zora", lastName: "Cachefield", consent: "yes" }).toString(),
    });
    const token = setCookie(signIn, "finder_user_session")!.value;
    const cookie = `finder_user_session=${token}`;
    for (const path of ["/en/", "/en/?g=house", "/en/submit-event", "/en/feature-event", "/en/my-night?e=evt_fixture000001"]) {
      const asUser = await ctx.request(path, { headers: { cookie } });
      const html = await asUser.text();
      expect(asUser.headers.get("cache-control") ?? "").toContain("public");
      expect(asUser.headers.get("set-cookie")).toBeNull();
      for (const secret of ["Zora", "Cachefield", "zora.cache@example.com", token]) expect({ path, leaked: html.includes(secret) }).toEqual({ path, leaked: false });
      const anonymous = await (await ctx.request(path)).text();
      expect(anonymous).toBe(html);
    }
  });
});
