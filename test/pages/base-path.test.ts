// NEXT_PUBLIC_BASE_PATH serves the whole site under a sub-path (docs/operations.md, "Base path"):
// routes, in-page links, htmx URLs, redirects, static files, the API, the manifest and the
// service worker's scope all live under it, in both languages; nothing answers outside it.

import { describe, expect, test } from "bun:test";
import { HTMX_HEADERS, useTestApp } from "../helpers/app.ts";

const BASE = "/fete";
const ctx = useTestApp({ env: { NEXT_PUBLIC_BASE_PATH: BASE } });

/** Every local address a page links to or loads (href, src, action, hx-get, hx-post). */
function localAddresses(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src|action|hx-get|hx-post|data-map-src)="(\/[^"]*)"/g)].map((m) => m[1]!);
}

describe("the site under a base path", () => {
  test("pages answer under it in both languages; outside it nothing does", async () => {
    const root = await ctx.request(`${BASE}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<html lang="en">');
    const french = await ctx.request(`${BASE}/fr/submit-event`);
    expect(french.status).toBe(200);
    expect(await french.text()).toContain('<html lang="fr">');
    expect((await ctx.request(`${BASE}`)).status).toBe(200);
    expect((await ctx.request("/")).status).toBe(404);
    expect((await ctx.request("/submit-event")).status).toBe(404);
    expect((await ctx.request("/api/events")).status).toBe(404);
  });

  test("every link, script, form and htmx URL of the pages stays under it", async () => {
    for (const path of ["/", "/fr/", "/?g=house", "/submit-event", "/fr/feature-event", "/my-night?e=evt_fixture000001", "/privacy", "/fr/terms", "/sign-in"]) {
      const html = await (await ctx.request(`${BASE}${path}`)).text();
      const addresses = localAddresses(html);
      expect(addresses.length).toBeGreaterThan(3);
      for (const address of addresses) expect({ path, address, under: address === BASE || address.startsWith(`${BASE}/`) || address.startsWith(`${BASE}?`) }).toEqual({ path, address, under: true });
    }
    const page = await (await ctx.request(`${BASE}/fr/`)).text();
    expect(page).toContain(`data-site-path="${BASE}" data-page-path="${BASE}/fr"`);
    expect(page).toContain(`href="${BASE}/fr/submit-event"`);
    expect(page).toContain(`hx-get="${BASE}/fr/"`);
  });

  test("redirects, fragments, static files, the API, the manifest and the service worker live under it", async () => {
    const canonical = await ctx.request(`${BASE}/?g=house&q=`, { redirect: "manual" });
    expect(canonical.status).toBe(302);
    expect(canonical.headers.get("location")).toBe(`${BASE}/?g=house`);
    const old = await ctx.request(`${BASE}/terms?lang=fr`, { redirect: "manual" });
    expect(old.headers.get("location")).toBe(`${BASE}/fr/terms`);
    const fragment = await ctx.request(`${BASE}/fr/?g=house`, { headers: HTMX_HEADERS });
    expect(fragment.headers.get("hx-push-url")).toBe(`${BASE}/fr/?g=house`);
    const html = await (await ctx.request(`${BASE}/`)).text();
    const script = /<script src="([^"]+app\.[0-9a-f]+\.js)"/.exec(html)?.[1];
    expect(script).toStartWith(`${BASE}/static/`);
    expect((await ctx.request(script!)).status).toBe(200);
    expect((await ctx.request(`${BASE}/api/events`)).status).toBe(200);
    expect((await ctx.request(`${BASE}/sw.js`)).status).toBe(200);
    const manifest = (await (await ctx.request(`${BASE}/fr/manifest.webmanifest`)).json()) as { start_url: string; scope: string };
    expect(manifest).toMatchObject({ start_url: `${BASE}/fr/`, scope: `${BASE}/` });
    const share = await ctx.request(`${BASE}/event/evt_fixture000001/canal-amapiano-sunset`, { redirect: "manual" });
    expect(share.headers.get("location")).toStartWith(`${BASE}/?event=evt_fixture000001`);
  });

  test("the server's hit path serves the cached homepage under the base path, per language", async () => {
    const origin = ctx.listen();
    for (const path of [`${BASE}/`, `${BASE}/fr/`]) {
      await fetch(`${origin}${path}`);
      const again = await fetch(`${origin}${path}`);
      expect(again.headers.get("x-cache")).toBe("HIT");
      expect(await again.text()).toContain(path.endsWith("/fr/") ? '<html lang="fr">' : '<html lang="en">');
    }
  });
});
