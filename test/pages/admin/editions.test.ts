// /admin/operations/editions over HTTP as the console drives it (docs/editions.md): the card for an
// admin only, a window set or reset through the form, a bad window shown next to its field with
// nothing stored, the start of the coming edition refused without the confirmation tick and done
// with it (2026 archived, the ticked rows carried), and a hostile title escaped in the row list.

import { beforeEach, describe, expect, test } from "bun:test";
import { createClock, HTMX_HEADERS, useTestApp } from "../../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../../helpers/auth.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { readStoreSheet, saveStoreSheet } from "../../../src/lib/store/store.ts";
import { EDITIONS_KV_KEY } from "../../../src/lib/site/edition-settings.ts";
import { editionArchives, eventStoreRows } from "../../../src/lib/db/schema/index.ts";

const clock = createClock("2026-12-07T12:00:00Z");
const ctx = useTestApp({ clock, env: { DATA_MODE: "remote" } });
const PAGE = "/admin/operations/editions";
const HX = { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS };

const seed = async (csv: string = FIXTURE_SHEET_CSV) => {
  const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-upload", origin: "manual", now: clock.now(), trigger: "upload" });
  if (!saved.ok) throw new Error(saved.error);
};
const postForm = (path: string, fields: [string, string][], headers: Record<string, string> = HX) =>
  ctx.request(path, { method: "POST", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const archives = () => ctx.deps.db.select({ year: editionArchives.year }).from(editionArchives);

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.deps.editions.windows = {};
  clock.set("2026-12-07T12:00:00Z");
  await seed();
});

describe("the Editions page", () => {
  test("an admin sees the current edition, the windows, the archives and the start section with the working sheet", async () => {
    const res = await ctx.request(PAGE, { headers: ADMIN_KEY_HEADER });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain("Admin Console");
    expect(html).toContain('<section id="editions-card"');
    expect(html).toContain("2027 · Upcoming");
    expect(html).toContain("2027-06-15 to 2027-06-22");
    expect(html).toContain("No window set");
    expect(html).toContain("No edition archived yet.");
    expect(html).toContain("Start the 2027 edition");
    expect(html).toContain("stays browsable at /2026/");
    expect(html.match(/name="carryOver"/g)).toHaveLength(12);
    expect(html).toContain("Canal Amapiano Sunset");
    expect(html).toContain('name="confirm"');

    // htmx tab navigation gets the console fragment only.
    const fragment = await (await ctx.request(PAGE, { headers: HX })).text();
    expect(fragment).toStartWith('<div id="admin-console"');
  });

  test("anyone else gets the login card (401), and htmx is sent to the login page", async () => {
    const res = await ctx.request(PAGE);
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Admin Access");
    expect(html).not.toContain("editions-card");
    const hx = await ctx.request(PAGE, { headers: HTMX_HEADERS });
    expect(hx.status).toBe(401);
    expect(hx.headers.get("hx-redirect")).toStartWith("/admin/login?next=");
    const post = await postForm(`${PAGE}/window`, [["year", "2027"], ["from", "2027-06-18"], ["to", "2027-06-23"], ["night", "2027-06-22"]], HTMX_HEADERS);
    expect(post.status).toBe(401);
    expect(await ctx.deps.kv.get(EDITIONS_KV_KEY)).toBeUndefined();
  });

  test("the edition is live during its window: no start section", async () => {
    clock.set("2027-06-18T12:00:00Z");
    const html = await (await ctx.request(PAGE, { headers: ADMIN_KEY_HEADER })).text();
    expect(html).toContain("2027 · Live");
    expect(html).not.toContain("Start the 2027 edition");
  });
});

describe("the window form", () => {
  test("a window set through the form is stored and shown; its reset puts the year back on the default", async () => {
    const res = await postForm(`${PAGE}/window`, [["year", "2027"], ["from", "2027-06-18"], ["to", "2027-06-23"], ["night", "2027-06-22"]]);
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toStartWith('<section id="editions-card"');
    expect(card).toContain("Window of 2027 saved: 2027-06-18 to 2027-06-23, the night on 2027-06-22.");
    expect(card).toContain('<tr data-year="2027">');
    expect(card).toContain("Reset 2027 to the default");
    const stored = (await ctx.deps.kv.get(EDITIONS_KV_KEY)) as { windows: Record<string, unknown>; updatedBy: string };
    expect(stored.windows).toEqual({ "2027": { from: "2027-06-18", to: "2027-06-23", night: "2027-06-22" } });
    expect(ctx.deps.editions.windows["2027"]).toEqual({ from: "2027-06-18", to: "2027-06-23", night: "2027-06-22" });

    const reset = await postForm(`${PAGE}/window`, [["year", "2027"], ["reset", "true"]]);
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain("2027 is back on the default window: 2027-06-15 to 2027-06-22");
    expect(((await ctx.deps.kv.get(EDITIONS_KV_KEY)) as { windows: object }).windows).toEqual({});
  });

  test("without htmx the answer is the whole page with the card", async () => {
    const res = await postForm(`${PAGE}/window`, [["year", "2026"], ["from", "2026-06-19"], ["to", "2026-06-22"], ["night", "2026-06-21"]], ADMIN_KEY_HEADER);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Admin Console");
    expect(html).toContain("Window of 2026 saved");
  });

  test.each([
    [[["year", "2027"], ["from", "2027-06-23"], ["to", "2027-06-18"], ["night", "2027-06-21"]], "edition-from-error", "The first day must not come after the last"],
    [[["year", "2027"], ["from", "2027-06-15"], ["to", "2027-06-22"], ["night", "2027-07-01"]], "edition-night-error", "The night must fall inside the window"],
    [[["year", "20227"], ["from", "2027-06-15"], ["to", "2027-06-22"], ["night", "2027-06-21"]], "edition-year-error", "The year must be between 2000 and 2100"],
    [[["year", "2027"], ["from", "2027-06-15"], ["to", '"><b>x</b>'], ["night", "2027-06-21"]], "edition-to-error", "The to date must be a real date"],
  ] as [[string, string][], string, string][])("a bad window shows the message next to its field and stores nothing (%#)", async (fields, id, message) => {
    const res = await postForm(`${PAGE}/window`, fields);
    expect(res.status).toBe(400);
    const card = await res.text();
    expect(card).toContain(`<p id="${id}" class="field-error" role="alert">${message}`);
    expect(card).not.toContain('"><b>x</b>');
    // What was typed stays in the form.
    expect(card).toContain(`value="${fields[0]![1]}"`);
    expect(await ctx.deps.kv.get(EDITIONS_KV_KEY)).toBeUndefined();
  });

  test("a cookie session posting from another origin is refused and nothing is stored", async () => {
    const { token } = await loginAsAdmin(ctx);
    const fields: [string, string][] = [["year", "2027"], ["from", "2027-06-18"], ["to", "2027-06-23"], ["night", "2027-06-22"]];
    const res = await postForm(`${PAGE}/window`, fields, { cookie: `finder_admin_session=${token}`, ...HTMX_HEADERS });
    expect(res.status).toBe(403);
    expect(await ctx.deps.kv.get(EDITIONS_KV_KEY)).toBeUndefined();
    const ok = await postForm(`${PAGE}/window`, fields, { cookie: `finder_admin_session=${token}`, origin: "http://finder.test", ...HTMX_HEADERS });
    expect(ok.status).toBe(200);
    expect(((await ctx.deps.kv.get(EDITIONS_KV_KEY)) as { windows: object }).windows).toHaveProperty("2027");
  });
});

describe("starting the 2027 edition", () => {
  test("without the confirmation tick it is refused, the ticks are kept and nothing is archived", async () => {
    const ids = (await readStoreSheet(ctx.deps.db))!.rows.map((row) => row.id);
    const res = await postForm(`${PAGE}/start`, [["year", "2027"], ["carryOver", ids[0]!]]);
    expect(res.status).toBe(400);
    const card = await res.text();
    expect(card).toContain('<p id="start-confirm-error" class="field-error" role="alert">Tick the confirmation box to start the edition; nothing was archived.</p>');
    expect(card).toContain(`value="${ids[0]}" checked`);
    expect(await archives()).toEqual([]);
    expect(await ctx.deps.db.select().from(eventStoreRows)).toHaveLength(ids.length);
  });

  test("with it, 2026 is archived, the ticked rows are carried and the result is shown; a second start is refused", async () => {
    const ids = (await readStoreSheet(ctx.deps.db))!.rows.map((row) => row.id);
    const res = await postForm(`${PAGE}/start`, [["year", "2027"], ["carryOver", ids[0]!], ["carryOver", ids[1]!], ["confirm", "yes"]]);
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toMatch(/The 2027 edition is started: archived 12 events of 2026 \(browsable at \/2026\/\), carried 2 rows over as drafts; backup [\w-]+ taken first\./);
    expect(card).toContain('<tr data-archive="2026">');
    expect(card).not.toContain("Start the 2027 edition");
    expect(await archives()).toEqual([{ year: 2026 }]);
    const working = (await ctx.deps.db.select().from(eventStoreRows)).map((row) => row.rowData);
    expect(working).toHaveLength(2);
    for (const values of working) expect(values.date).toMatch(/^2027-06-/);

    const again = await postForm(`${PAGE}/start`, [["year", "2027"], ["confirm", "yes"]]);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("The 2026 edition is archived already: 2027 was started; nothing was archived.");
    expect(await ctx.deps.db.select().from(eventStoreRows)).toHaveLength(2);
  });

  test("an unknown row id is refused next to the list and nothing is archived", async () => {
    const res = await postForm(`${PAGE}/start`, [["year", "2027"], ["carryOver", "not-a-row"], ["confirm", "yes"]]);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<p id="carry-over-error" class="field-error" role="alert">Rows not in the working sheet: not-a-row; nothing was archived.</p>');
    expect(await archives()).toEqual([]);
  });

  test("a hostile event title is escaped in the carry-over list", async () => {
    const [header, first] = FIXTURE_SHEET_CSV.split("\n");
    const hostile = first!.replace("Canal Amapiano Sunset", '"<img src=x onerror=alert(1)>"').replace("evt_fixture000001", "");
    await seed([header, hostile].join("\n"));
    const html = await (await ctx.request(PAGE, { headers: ADMIN_KEY_HEADER })).text();
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
