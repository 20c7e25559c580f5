// The browser scripts as ES modules on the pages: each is linked as a module by its fingerprinted
// address, with the fingerprinted addresses of everything it imports beside it (static/offline.js
// keeps them on the first visit); every import is served at a fingerprinted, year-long address;
// and the whole first load, imports included, keeps the homepage's script budget.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { moduleImportsOf, staticAssets } from "../../src/lib/serving/static-assets.ts";
import { FILTER_STORAGE_KEY } from "../../src/lib/events/filter-query.ts";
import { SESSION_STORAGE_KEY } from "../../src/lib/tracking/validation.ts";
import { currentEdition, DEFAULT_WINDOW } from "../../src/lib/events/editions.ts";
import { PARIS_TIME_ZONE } from "../../src/lib/paris-time.ts";

const ctx = useTestApp();

/** The script tags of a page: address, type and the data-imports list. */
function scriptTags(html: string) {
  return [...html.matchAll(/<script src="([^"]+)"([^>]*)>/g)].map((m) => ({
    src: m[1]!,
    module: /\stype="module"/.test(m[2]!),
    imports: (/\sdata-imports="([^"]*)"/.exec(m[2]!)?.[1] ?? "").split(" ").filter(Boolean),
  }));
}

describe("browser modules on the pages", () => {
  test("the homepage's scripts are modules; app.js lists every module it imports, each by its fingerprinted address", async () => {
    const tags = scriptTags(await (await ctx.request("/")).text());
    const pageScripts = tags.filter((tag) => !tag.src.includes("/vendor/"));
    expect(pageScripts.length).toBe(5);
    for (const tag of pageScripts) expect(tag.module).toBe(true);
    const app = tags.find((tag) => /^\/static\/app\.[0-9a-f]{10}\.js$/.test(tag.src))!;
    const imports = moduleImportsOf("app.js");
    expect(imports.length).toBeGreaterThan(8);
    expect(app.imports).toEqual(imports.map((path) => `/static/${staticAssets().byPath.get(path)!.hashedPath}`));
    for (const url of app.imports) expect(url).toMatch(/^\/static\/app\/[a-z-]+\.[0-9a-f]{10}\.js$/);
  });

  test("the sheet editor card links its module with every part it imports", async () => {
    const html = await (await ctx.request("/admin/content", { headers: ADMIN_KEY_HEADER })).text();
    const editor = scriptTags(html).find((tag) => /\/static\/sheet-editor\.[0-9a-f]{10}\.js$/.test(tag.src))!;
    expect(editor.module).toBe(true);
    expect(editor.imports.length).toBe(moduleImportsOf("sheet-editor.js").length);
    expect(editor.imports.some((url) => /\/static\/sheet-editor\/clipboard\.[0-9a-f]{10}\.js$/.test(url))).toBe(true);
  });

  test("every import is served at its fingerprinted address for a year, and names its own imports fingerprinted", async () => {
    for (const entry of ["app.js", "sheet-editor.js"]) {
      for (const path of [entry, ...moduleImportsOf(entry)]) {
        const asset = staticAssets().byPath.get(path)!;
        const res = await ctx.request(`/static/${asset.hashedPath}`, { headers: { "accept-encoding": "identity" } });
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const source = await res.text();
        // No relative import is left with a plain name (which would be cached for an hour, and not kept offline).
        for (const m of source.matchAll(/^(?:import|export)[^"\n]*"(\.\.?\/[^"]+)"/gm)) expect(m[1]).toMatch(/\.[0-9a-f]{10}\.js$/);
      }
    }
  });

  test("the first load of the homepage, every import included, stays under 40 KB compressed", async () => {
    const tags = scriptTags(await (await ctx.request("/")).text());
    let total = 0;
    for (const url of tags.flatMap((tag) => [tag.src, ...tag.imports])) total += (await (await ctx.request(url, { headers: { "accept-encoding": "br" } })).arrayBuffer()).byteLength;
    expect(total).toBeLessThan(40 * 1024);
  });
});

describe("the modules copy no server constant", () => {
  const files = (dir: string) => readdirSync(join(import.meta.dir, "../../static", dir)).filter((name) => name.endsWith(".js")).map((name) => readFileSync(join(import.meta.dir, "../../static", dir, name), "utf8"));
  test("the homepage's parts spell no storage key, countdown day, time zone or filter list", () => {
    for (const source of files("app")) {
      expect(source).not.toContain(FILTER_STORAGE_KEY);
      expect(source).not.toContain(SESSION_STORAGE_KEY);
      expect(source).not.toContain(DEFAULT_WINDOW.night);
      expect(source).not.toContain(PARIS_TIME_ZONE);
      expect(source).not.toMatch(/\[\s*"df",\s*"dt"/);
      expect(source).not.toMatch(/\[\s*"dn",\s*"arr"/);
    }
  });
  test("the sheet editor's parts copy none of the editor rules", () => {
    for (const source of files("sheet-editor")) {
      expect(source).not.toMatch(/PAGE = \d|MAX_WINDOW = \d/);
      expect(source).not.toMatch(/\.slice\(0, \d+\) \|\| "column"/);
    }
  });
});
