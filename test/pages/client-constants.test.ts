// Server constants reach the browser as data, never as copies in the scripts. The filter parameters
// are written once (lib/events/filter-query.ts FILTER_PARAMS): the filters form hands their names
// and the storage key to app.js and OpenAPI documents them from the same table. The header's
// "My night" link hands my-night.js the cap, the event-key pattern and the storage key. The sheet
// editor card hands sheet-editor.js its page size, window and custom-column slug bounds; the home
// header hands app.js the countdown day; every page hands app.js the session id's storage key.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FILTER_PARAM_NAMES, FILTER_PARAMS, FILTER_STORAGE_KEY, filtersToSearchParams, LIST_PARAM_NAMES, parseFilters } from "../../src/lib/events/filter-query.ts";
import { MOMENT_PARAM } from "../../src/lib/events/filter-moment.ts";
import { FILTER_QUERY_PARAMETERS } from "../../src/api/openapi.ts";
import { MAX_NIGHT_EVENTS, NIGHT_STORAGE_KEY } from "../../src/lib/events/saved-night.ts";
import { EVENT_KEY_PATTERN } from "../../src/lib/sheet/keys.ts";
import { EDITOR_RULES } from "../../src/lib/admin/sheet-editor.ts";
import { CUSTOM_KEY_SLUG_MAX } from "../../src/lib/store/store.ts";
import { SESSION_STORAGE_KEY } from "../../src/lib/tracking/validation.ts";
import { currentEdition, DEFAULT_WINDOW } from "../../src/lib/events/editions.ts";
import { PARIS_TIME_ZONE } from "../../src/lib/paris-time.ts";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";

const ctx = useTestApp();

const script = (name: string) => readFileSync(join(import.meta.dir, "../../static", name), "utf8");
/** The HTML-unescaped value of attribute `name` on the first element whose opening tag matches `tag`. */
const attributeOf = (html: string, tag: RegExp, name: string) => {
  const element = tag.exec(html)?.[0] ?? "";
  const raw = new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1];
  const named: Record<string, string> = { quot: '"', apos: "'", lt: "<", gt: ">", amp: "&" };
  return raw?.replace(/&(#\d+|[a-z]+);/g, (entity, name: string) => (name.startsWith("#") ? String.fromCharCode(Number(name.slice(1))) : (named[name] ?? entity)));
};

const attribute = (html: string, name: string) => new RegExp(`<form[^>]*id="filters"[^>]*\\s${name}="([^"]*)"`).exec(html)?.[1];

test("the filters form carries the parameter names and the storage key as data", async () => {
  const html = await (await ctx.request("/")).text();
  expect(attribute(html, "data-filter-params")?.split(" ")).toEqual([...FILTER_PARAM_NAMES, MOMENT_PARAM]);
  expect(attribute(html, "data-storage-key")).toBe(FILTER_STORAGE_KEY);
  expect(attribute(html, "data-list-params")?.split(" ")).toEqual(["dn", "arr", "g", "nat", "vt"]);
  expect(LIST_PARAM_NAMES).toEqual(["dn", "arr", "g", "nat", "vt"]);
});

test("every control of the filters form is named from the table", async () => {
  const html = await (await ctx.request("/")).text();
  const form = /<form[^>]*id="filters"[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
  const names = new Set([...form.matchAll(/<input[^>]*\sname="([^"]+)"/g)].map((m) => m[1].replace(/_(min|max)$/, "")));
  expect(names.size).toBeGreaterThan(5);
  for (const name of names) expect([...FILTER_PARAM_NAMES, MOMENT_PARAM]).toContain(name);
});

test("OpenAPI documents exactly the table's parameters, with its descriptions", () => {
  expect(FILTER_QUERY_PARAMETERS.map((p) => p.name).sort()).toEqual([...FILTER_PARAM_NAMES].sort());
  for (const param of Object.values(FILTER_PARAMS)) expect(FILTER_QUERY_PARAMETERS.find((p) => p.name === param.name)?.description).toBe(param.doc);
});

test("every table entry round-trips: what it serialises, its parser reads back", () => {
  const query = "df=2026-06-21&dt=2026-06-22&dn=night&arr=3,11&g=house&nat=UK&vt=indoor&in=outdoor&pick=1&pr=0:20&ag=18:21&q=jazz+club";
  const filters = parseFilters(new URLSearchParams(query));
  const canonical = filtersToSearchParams(filters);
  expect([...canonical.keys()]).toEqual([...FILTER_PARAM_NAMES]);
  expect(parseFilters(canonical)).toEqual(filters);
});

test("static/app.js spells no filter parameter list and no storage key", () => {
  const script = readFileSync(join(import.meta.dir, "../../static/app.js"), "utf8");
  expect(script).not.toContain(FILTER_STORAGE_KEY);
  expect(script).not.toMatch(/\[\s*"df",\s*"dt"/);
  expect(script).not.toMatch(/\[\s*"dn",\s*"arr"/);
});

test("the My night link carries the cap, the event-key pattern and the storage key; my-night.js spells none of them", async () => {
  const html = await (await ctx.request("/")).text();
  const link = /<a[^>]*data-my-night-link[^>]*>/.exec(html)?.[0] ?? "";
  const data = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(link)?.[1];
  expect(data("data-max")).toBe(String(MAX_NIGHT_EVENTS));
  expect(data("data-key-pattern")).toBe(EVENT_KEY_PATTERN);
  expect(data("data-storage-key")).toBe(NIGHT_STORAGE_KEY);
  const script = readFileSync(join(import.meta.dir, "../../static/my-night.js"), "utf8");
  expect(script).not.toContain(NIGHT_STORAGE_KEY);
  expect(script).not.toContain("evt_[a-z0-9]");
  expect(script).not.toMatch(/MAX = \d/);
});

test("the sheet editor card carries the server's editor rules; sheet-editor.js copies none of them", async () => {
  const html = await (await ctx.request("/admin/content", { headers: ADMIN_KEY_HEADER })).text();
  const rules = attributeOf(html, /<template[^>]*id="sheet-editor-data"[^>]*>/, "data-rules");
  expect(JSON.parse(rules ?? "null")).toEqual({ ...EDITOR_RULES });
  // The editor makes custom-column keys with the store's slug bound, not a bound of its own.
  expect(EDITOR_RULES.customKeySlug).toBe(CUSTOM_KEY_SLUG_MAX);
  expect(attributeOf(html, /<input[^>]*data-search[^>]*>/, "maxlength")).toBe(String(EDITOR_RULES.maxSearch));
  const editor = script("sheet-editor.js");
  expect(editor).not.toMatch(/PAGE = \d|MAX_WINDOW = \d/);
  expect(editor).not.toMatch(/\.slice\(0, \d+\) \|\| "column"/);
});

test("the home countdown carries the server's day; app.js spells no day of its own", async () => {
  const html = await (await ctx.request("/")).text();
  expect(attributeOf(html, /<p[^>]*data-countdown[^>]*>/, "data-countdown")).toBe(currentEdition(ctx.clock.now(), {}).night);
  expect(script("app.js")).not.toContain(DEFAULT_WINDOW.night);
});

test("every page carries the session id's storage key, the privacy page names the same; app.js spells none", async () => {
  for (const path of ["/", "/privacy", "/fr/privacy"]) {
    const html = await (await ctx.request(path)).text();
    expect(attributeOf(html, /<body[^>]*>/, "data-session-key")).toBe(SESSION_STORAGE_KEY);
    if (path !== "/") expect(html).toContain(`<code>${SESSION_STORAGE_KEY}</code>`);
  }
  expect(script("app.js")).not.toContain(SESSION_STORAGE_KEY);
});

test("every public page names the Paris time zone on <body>, and no script spells it", async () => {
  for (const path of ["/", "/offline", "/my-night"]) {
    const html = await (await ctx.request(path)).text();
    expect(/<body[^>]*\sdata-time-zone="([^"]*)"/.exec(html)?.[1]).toBe(PARIS_TIME_ZONE);
  }
  for (const file of ["app.js", "offline.js", "my-night.js", "map.js", "sw.js"]) {
    expect(readFileSync(join(import.meta.dir, "../../static", file), "utf8")).not.toContain(PARIS_TIME_ZONE);
  }
});
