// Server constants reach the browser as data, never as copies in the scripts. The filter parameters
// are written once (lib/events/filter-query.ts FILTER_PARAMS): the filters form hands their names
// and the storage key to app.js and OpenAPI documents them from the same table. The header's
// "My night" link hands my-night.js the cap, the event-key pattern and the storage key.

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FILTER_PARAM_NAMES, FILTER_PARAMS, FILTER_STORAGE_KEY, filtersToSearchParams, LIST_PARAM_NAMES, parseFilters } from "../../src/lib/events/filter-query.ts";
import { MOMENT_PARAM } from "../../src/lib/events/filter-moment.ts";
import { FILTER_QUERY_PARAMETERS } from "../../src/api/openapi.ts";
import { MAX_NIGHT_EVENTS, NIGHT_STORAGE_KEY } from "../../src/lib/events/saved-night.ts";
import { EVENT_KEY_PATTERN } from "../../src/lib/sheet/keys.ts";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();

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
