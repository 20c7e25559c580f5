// The operations and moderation cards over HTTP as htmx drives them: each action answers its
// fragment, failures answer the fragment with an inline error and a 4xx (which the console's htmx
// configuration swaps), cookie sessions need the site's origin, long actions run as jobs.

import { beforeEach, describe, expect, test } from "bun:test";
import { useTestApp } from "../../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../../helpers/auth.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet } from "../../../src/lib/store/store.ts";
import { listBackups } from "../../../src/lib/store/backups.ts";
import { submitEvent } from "../../../src/lib/submissions/submit.ts";
import { findBannerSettings } from "../../../src/lib/site/banner.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const HX = { ...ADMIN_KEY_HEADER, "hx-request": "true" };
const seed = () => saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
const form = (fields: Record<string, string>) => ({ "content-type": "application/x-www-form-urlencoded", body: new URLSearchParams(fields).toString() });
const postForm = (path: string, fields: Record<string, string> = {}, headers: Record<string, string> = HX) => {
  const f = form(fields);
  return ctx.request(path, { method: "POST", headers: { ...headers, "content-type": f["content-type"] }, body: f.body });
};
function upload(csv: string, mode: "check" | "write") {
  const data = new FormData();
  data.set("file", new File([csv], "events.csv", { type: "text/csv" }));
  data.set("mode", mode);
  return ctx.request("/admin/operations/store/upload", { method: "POST", headers: HX, body: data });
}

describe("/admin/operations", () => {
  test("the page holds every card", async () => {
    await seed();
    const html = await (await ctx.request("/admin/operations", { headers: ADMIN_KEY_HEADER })).text();
    for (const title of ["Activity", "Runtime Data Status", "Live Snapshot", "Event Store Controls", "Admin Sessions", "Recovery"]) expect(html).toContain(`>${title}</h2>`);
    expect(html).toContain("Revalidate Homepage");
    expect(html).toContain("Dry-run source check");
    expect(html).toContain("Export Store CSV");
    expect(html).toContain("Restore Latest Backup");
    expect(html).toContain("CLEAR STORE");
    expect(html).toContain("Canal Amapiano Sunset"); // live snapshot
    // Import stays disabled until a preview without blocking issues.
    expect(html).toMatch(/<button type="submit" class="button button-danger" disabled title="Preview the spreadsheet first">\s*Import Spreadsheet/);
    // htmx swaps 4xx answers so refusals show their inline error.
    expect(html).toContain("&#34;code&#34;:&#34;4..&#34;,&#34;swap&#34;:true");
  });

  test("Revalidate Homepage answers the card with the time taken; the dry run writes nothing", async () => {
    const res = await ctx.request("/admin/operations/revalidate", { method: "POST", headers: HX });
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toStartWith('<section id="ops-status"');
    expect(card).toMatch(/Revalidated in \d+ ms/);
    const check = await (await ctx.request("/admin/operations/snapshot?check=1", { headers: HX })).text();
    expect(check).toContain("Source check (nothing written): Test dataset would serve");
  });

  test("a cookie session from another origin gets 403 as a fragment and nothing happens", async () => {
    await seed();
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/operations/store/backups", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, "hx-request": "true" } });
    expect(res.status).toBe(403);
    const body = await res.text();
    expect(body).toContain('role="alert"');
    expect(body).toContain("Forbidden");
    expect(await listBackups(ctx.deps.db)).toHaveLength(0);
    const ok = await ctx.request("/admin/operations/store/backups", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, origin: "http://finder.test", "hx-request": "true" } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Backup created (12 rows, 0 featured entries)");
  });

  test("upload: check shows the report and the write button; a bad file is a 400 with the report; write replaces the store", async () => {
    await seed();
    const before = (await findStoreMeta(ctx.deps.db))!.revision;
    const bad = await upload("Title;Date\nGig;2026-06-21\n", "check");
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('id="upload-report"');
    expect(badHtml).toContain("semicolon (;)");
    expect(badHtml).not.toContain('value="write"');
    const formula = await upload("Title,Date\n=cmd(),2026-06-21\n", "write");
    expect(formula.status).toBe(400);
    expect(await formula.text()).toContain("look like spreadsheet formulas");
    expect((await findStoreMeta(ctx.deps.db))!.revision).toBe(before);

    const csv = await Bun.file("data/events.csv").text();
    const checked = await upload(csv, "check");
    expect(checked.status).toBe(200);
    const checkedHtml = await checked.text();
    expect(checkedHtml).toContain("81 rows, 20 columns.");
    expect(checkedHtml).toContain("Upload CSV to Store (81 rows, replaces the store)");
    expect((await findStoreMeta(ctx.deps.db))!.revision).toBe(before);

    const written = await upload(csv, "write");
    expect(written.status).toBe(200);
    expect(written.headers.get("hx-trigger")).toBe("ops-refresh");
    expect(await written.text()).toContain("Uploaded 81 rows to the store");
    expect((await readStoreSheet(ctx.deps.db))!.rows).toHaveLength(81);

    const empty = await ctx.request("/admin/operations/store/upload", { method: "POST", headers: HX, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Choose a CSV file first.");
  });

  test("clear store: the wrong text is a 400 inline error; the right one snapshots and clears", async () => {
    await seed();
    const wrong = await postForm("/admin/operations/recovery/clear-store", { confirm: "clear" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Type CLEAR STORE to confirm; nothing was changed.");
    expect((await findStoreMeta(ctx.deps.db))!.rowCount).toBe(12);
    const ok = await postForm("/admin/operations/recovery/clear-store", { confirm: "CLEAR STORE" });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Store cleared and homepage revalidated");
    expect((await findStoreMeta(ctx.deps.db))!.rowCount).toBe(0);
    expect((await listBackups(ctx.deps.db)).map((b) => b.trigger)).toEqual(["pre-restore"]);
  });

  test("a long action starts a job: a polling progress bar at once, the message when done", async () => {
    await seed();
    const res = await ctx.request("/admin/operations/recovery/load-local-csv", { method: "POST", headers: HX });
    expect(res.status).toBe(202);
    const started = await res.text();
    const id = /id="job-([0-9a-f-]{36})"/.exec(started)![1];
    expect(started).toContain(`hx-get="/admin/operations/jobs/${id}"`);
    expect(started).toContain('hx-trigger="every 500ms"');
    expect(started).toContain("<progress");
    await ctx.deps.jobs.settle();
    const done = await ctx.request(`/admin/operations/jobs/${id}`, { headers: HX });
    expect(done.headers.get("hx-trigger")).toBe("ops-refresh");
    const html = await done.text();
    expect(html).toContain('data-job-state="succeeded"');
    expect(html).toContain("Loaded 81 rows from the local events file");
    expect(html).not.toContain("every 500ms");
    const api = await (await ctx.request(`/api/admin/jobs/${id}`, { headers: ADMIN_KEY_HEADER })).json();
    expect(api.job).toMatchObject({ id, kind: "Load sample sheet", state: "succeeded", percent: 100 });

    const restore = await postForm("/admin/operations/store/restore", { id: "00000000-0000-4000-8000-000000000000" });
    const restoreId = /id="job-([0-9a-f-]{36})"/.exec(await restore.text())![1];
    await ctx.deps.jobs.settle();
    const failed = await (await ctx.request(`/admin/operations/jobs/${restoreId}`, { headers: HX })).text();
    expect(failed).toContain('data-job-state="failed"');
    expect(failed).toContain("No matching event store backup exists.");
    expect((await ctx.request("/admin/operations/jobs/nope", { headers: HX })).status).toBe(404);
  });
});

describe("/admin/content moderation cards", () => {
  let n = 0;
  async function received(overrides: Record<string, unknown> = {}) {
    n++;
    const outcome = await submitEvent(
      ctx.deps,
      { eventName: `Card Test ${n}`, date: "2026-06-21", startTime: "19:00", location: "Le Toit", hostEmail: `h${n}@example.com`, proofLink: `x.example/${n}`, arrondissement: "20", ...overrides },
      `192.0.2.${n}`,
    );
    if (outcome.kind !== "received") throw new Error("not received");
    ctx.clock.advance(1000);
    return outcome.id;
  }

  test("accept shows the new key with its editor link; a second accept is 409 'Already reviewed by another admin'", async () => {
    await seed();
    const id = await received({ eventName: "<b>Bold</b> Night" });
    const page = await (await ctx.request("/admin/content", { headers: ADMIN_KEY_HEADER })).text();
    expect(page).toContain("Event Submissions");
    expect(page).toContain("Sliding Banner");
    expect(page).toContain("&lt;b&gt;Bold&lt;/b&gt; Night");
    expect(page).not.toContain("<b>Bold</b>");

    const res = await ctx.request(`/admin/content/submissions/${id}/accept`, { method: "POST", headers: HX });
    expect(res.status).toBe(200);
    const html = await res.text();
    const key = /<code>(evt_[a-z0-9]+)<\/code>/.exec(html)![1];
    expect(html).toContain(`href="/admin/content?search=${key}#sheet-editor"`);
    expect((await readStoreSheet(ctx.deps.db))!.rows.at(-1)!.values.eventKey).toBe(key);

    const again = await ctx.request(`/admin/content/submissions/${id}/accept`, { method: "POST", headers: HX });
    expect(again.status).toBe(409);
    const againHtml = await again.text();
    expect(againHtml).toStartWith('<section id="submissions-card"');
    expect(againHtml).toContain("Already reviewed by another admin");
  });

  test("decline: reason required, other needs a note (400 inline); spam signals on declined; the switch", async () => {
    const id = await received();
    await received({ honeypot: "bot" });
    const noNote = await postForm(`/admin/content/submissions/${id}/decline`, { reason: "other" });
    expect(noNote.status).toBe(400);
    expect(await noNote.text()).toContain("Add a note explaining the reason");
    const ok = await postForm(`/admin/content/submissions/${id}/decline`, { reason: "unable_to_verify" });
    expect(ok.status).toBe(200);
    const declined = await (await ctx.request("/admin/content/submissions?status=declined", { headers: HX })).text();
    expect(declined).toContain("Spam signals: hidden field filled");
    expect(declined).toContain("Declined: Unable to verify");
    const closed = await postForm("/admin/content/submissions/settings", { enabled: "false" });
    expect(await closed.text()).toContain("Event submissions are now closed");
  });

  test("banner: save applies the rules; enabled with no message is a 400 that keeps the draft", async () => {
    const saved = await postForm("/admin/content/banner", { messages: "One\n\n  Two  \n", seconds: "5", desktopMessageCount: "1" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Banner saved");
    expect(await findBannerSettings(ctx.deps)).toMatchObject({ messages: ["One", "Two"], messageDurationMs: 5000, desktopMessageCount: 1, updatedBy: "admin-key" });
    const refused = await postForm("/admin/content/banner", { messages: "   ", seconds: "7" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Banner needs at least one message when enabled");
    expect(html).toContain('value="7"');
    expect((await findBannerSettings(ctx.deps)).messages).toEqual(["One", "Two"]);
  });
});
