// Static files: pages link fingerprinted addresses, which answer with a one-year immutable cache and
// precompressed brotli or gzip bytes that decode to the file; plain addresses keep a short cache.

import { describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { useTestApp } from "../helpers/app.ts";
import { staticAssets } from "../../src/lib/serving/static-assets.ts";

const ctx = useTestApp();

/**
 * A script's bytes as served: its file, with each relative import renamed to the fingerprinted
 * file it names (src/lib/serving/static-modules.ts).
 */
function served(name: string): Buffer {
  const text = readFileSync(new URL(`../../static/${name}`, import.meta.url), "utf8");
  const renamed = text.replace(/^(import [^"]*")(\.\/[^"]+)"/gm, (_whole, lead: string, specifier: string) => {
    const target = staticAssets().byPath.get(posix.join(posix.dirname(name), specifier))!;
    return `${lead}${specifier.replace(/[^/]+$/, posix.basename(target.hashedPath))}"`;
  });
  return Buffer.from(renamed);
}

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
    const source = served("app.js");
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

  test("every script of the first load (htmx, messages.js, app.js, my-night.js, offline.js, report.js) together stays under 32 KB compressed", async () => {
    const links = (await linkedAssets()).filter((link) => link.endsWith(".js"));
    let total = 0;
    for (const link of links) total += (await (await ctx.request(link, { headers: { "accept-encoding": "br" } })).arrayBuffer()).byteLength;
    // Five since the message reader moved out of app.js into messages.js (shared by four scripts);
    // six with the event modal's "Report a problem" helper.
    expect(links.map((link) => link.replace(/\.[0-9a-f]{10}\.js$/, ".js"))).toEqual(["/static/vendor/htmx.min.js", "/static/messages.js", "/static/app.js", "/static/my-night.js", "/static/offline.js", "/static/report.js"]);
    // 32 KB since near me's cards, offline details and the URL language (about 1.5 KB together).
    expect(total).toBeLessThan(32 * 1024);
  });

  test("the page's words are read by messages.js alone, linked before every script that shows text", async () => {
    const dir = new URL("../../static/", import.meta.url);
    const scripts = readdirSync(dir).filter((name) => name.endsWith(".js"));
    // One reader of the JSON block: no script keeps a copy of its own.
    expect(scripts.filter((name) => readFileSync(new URL(name, dir), "utf8").includes("i18n-messages"))).toEqual(["messages.js"]);
    const users = scripts.filter((name) => name !== "messages.js" && readFileSync(new URL(name, dir), "utf8").includes("window.finderMsg"));
    expect(users.sort()).toEqual(["app.js", "feature-event.js", "map.js", "submit-event.js"]);
    // map.js is loaded by app.js when the map opens; the others are linked by the pages below.
    for (const path of ["/", "/my-night", "/submit-event", "/feature-event", "/feature-event/status"]) {
      const html = await (await ctx.request(path)).text();
      const linked = [...html.matchAll(/<script src="\/static\/([a-z-]+)\.[0-9a-f]{10}\.js"/g)].map((m) => m[1] + ".js");
      const first = linked.findIndex((name) => users.includes(name));
      expect(first).toBeGreaterThan(-1);
      expect(linked.indexOf("messages.js")).toBeGreaterThan(-1);
      expect(linked.indexOf("messages.js")).toBeLessThan(first);
      expect(html).toContain('<script type="application/json" id="i18n-messages">');
    }
    // A page without messages.js carries no words block.
    expect(await (await ctx.request("/admin/login")).text()).not.toContain("i18n-messages");
  });
});
