// Reports from visitors over HTTP on the real app and database: the JSON API and the modal's form
// (POST /event/:key/report, with and without htmx), then the console's card and admin API: mark
// cancelled (the public event shows the status at once, its reports resolved) and dismiss.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { HTMX_HEADERS, TEST_AUTH_SECRET, useTestApp, postJson } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { hmacHex } from "../../src/lib/crypto.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });

const CANAL = "evt_fixture000001";
const ROOFTOP = "evt_fixture000002";
const BRUNCH = "evt_fixture000003";
const PIGALLE = "evt_fixture000004";
const IP = "203.0.113.9";
const STARTED = "2026-06-21T19:28:00.000Z"; // two minutes before the clock

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-21T19:30:00Z");
  const saved = await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
});

const report = (key: string, body: unknown, headers: Record<string, string> = {}) => postJson(ctx, `/api/events/${key}/reports`, body, { "x-forwarded-for": IP, ...headers });
const rows = () => ctx.deps.database.query<Record<string, any>>(sql`select * from event_reports order by created_at, id`);
const count = async () => (await rows()).length;
const formPost = (key: string, fields: Record<string, string>, headers: Record<string, string> = {}, prefix = "") =>
  ctx.request(`${prefix}/event/${key}/report`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://finder.test", "x-forwarded-for": IP, ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("POST /api/events/:key/reports", () => {
  test("201 with the thanks; the row holds the event, kind, text, open state and limiter hashes only: no IP, no email", async () => {
    const res = await report(CANAL, { kind: "cancelled", text: "  Rain: the stage is closed  ", formStartedAt: STARTED });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ success: true, message: "Thanks, the team will check this event." });
    for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
    const columns = await ctx.deps.database.query<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'event_reports' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      "id",
      "event_key",
      "event_title",
      "kind",
      "text",
      "status",
      "resolved_by",
      "resolved_at",
      "source_ip_hash",
      "event_ip_hash",
      "spam",
      "spam_signals",
      "created_at",
      "idempotency_key",
      "request_digest",
    ]);
    const [row] = await rows();
    expect(row).toMatchObject({ event_key: CANAL, event_title: "Canal Amapiano Sunset", kind: "cancelled", text: "Rain: the stage is closed", status: "open", resolved_by: null, resolved_at: null, spam: false });
    expect(row.source_ip_hash).toBe(hmacHex(TEST_AUTH_SECRET, `event_report_ip|${IP}`));
    expect(row.event_ip_hash).toBe(hmacHex(TEST_AUTH_SECRET, `event_report_event_ip|${CANAL}|${IP}`));
    expect(row.spam_signals).toEqual({ honeypotFilled: false, completedTooFast: false, completionSeconds: 120, reasons: [] });
    expect(new Date(row.created_at).toISOString()).toBe("2026-06-21T19:30:00.000Z");
    expect(JSON.stringify(row)).not.toContain(IP);
    expect(JSON.stringify(row)).not.toContain("@");
    // The key is read case-insensitively; no text is fine.
    ctx.clock.advance(1000);
    expect((await report(ROOFTOP.toUpperCase(), { kind: "wrong_place" })).status).toBe(201);
    expect((await rows())[1]).toMatchObject({ event_key: ROOFTOP, kind: "wrong_place", text: "" });
  });

  test("400 with issues for bad input, nothing written", async () => {
    const cases: [unknown, string[]][] = [
      [{}, ["kind"]],
      [{ kind: "late" }, ["kind"]],
      [{ kind: "other", text: "x".repeat(501) }, ["text"]],
      [{ kind: "other", text: 42 }, ["text"]],
      [{ kind: "other", text: "bell\u0007" }, ["text"]],
      [{ kind: ["cancelled"], text: "x".repeat(600) }, ["kind", "text"]],
      [[1, 2], ["body"]],
      ["{not json", ["body"]],
    ];
    for (const [body, fields] of cases) {
      const res = await report(CANAL, body, { "x-forwarded-for": `198.51.100.${fields.length}` });
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.success).toBe(false);
      expect(json.issues.map((i: { field: string }) => i.field)).toEqual(fields);
    }
    // 500 characters exactly is accepted.
    expect((await report(CANAL, { kind: "other", text: "é".repeat(500) })).status).toBe(201);
    expect(await count()).toBe(1);
  });

  test("404 for a key no published event has, including a row that is only a draft; nothing written", async () => {
    expect((await report("evt_nothing000000", { kind: "cancelled" })).status).toBe(404);
    // A row added to the working sheet (autosave) but never published cannot be reported.
    const draft = `${FIXTURE_SHEET_CSV}\nDraft Gig,,2026-06-21,,21:00,,FR,Rue X,11,Free,Rock,,,Indoor,,,,,,evt_draftdraft0001`;
    const saved = await saveStoreSheet(ctx.deps.db, draft, { updatedBy: "admin-sheet-editor", origin: "manual", now: ctx.clock.now(), publish: false });
    if (!saved.ok) throw new Error(saved.error);
    const res = await report("evt_draftdraft0001", { kind: "cancelled" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: "No published event has this key" });
    expect(await count()).toBe(0);
  });

  test("403 cross-site, 415 not JSON, 413 too large; nothing written", async () => {
    expect((await report(CANAL, { kind: "cancelled" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await report(CANAL, { kind: "cancelled" }, { "content-type": "text/plain" })).status).toBe(415);
    expect((await report(CANAL, { kind: "other", text: "x".repeat(9000) })).status).toBe(413);
    expect(await count()).toBe(0);
  });

  test("429 with Retry-After: 3 reports per event per visitor an hour, 10 per visitor in 10 minutes", async () => {
    for (let i = 0; i < 3; i++) expect((await report(CANAL, { kind: "cancelled" })).status).toBe(201);
    const again = await report(CANAL, { kind: "cancelled" });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another visitor may still report it.
    expect((await report(CANAL, { kind: "cancelled" }, { "x-forwarded-for": "192.0.2.1" })).status).toBe(201);
    // The same visitor on other events, up to 10 requests in 10 minutes in all (the refused one counts).
    for (const key of [ROOFTOP, ROOFTOP, ROOFTOP, BRUNCH, BRUNCH, PIGALLE]) expect((await report(key, { kind: "other" })).status).toBe(201);
    const blocked = await report(PIGALLE, { kind: "other" });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ success: false, error: "Too many reports. Please try again shortly." });
    expect(await count()).toBe(10);
    ctx.clock.advance(601_000);
    expect((await report(PIGALLE, { kind: "other" })).status).toBe(201);
  });

  test("spam signals: a filled honeypot or a form sent in under 4 s is stored flagged, with the same answer", async () => {
    const honeypot = await report(CANAL, { kind: "cancelled", text: "buy pills", honeypot: "http://spam.example", formStartedAt: STARTED });
    ctx.clock.advance(1000);
    const fast = await report(ROOFTOP, { kind: "other", formStartedAt: "2026-06-21T19:29:59.500Z" });
    for (const res of [honeypot, fast]) {
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ success: true, message: "Thanks, the team will check this event." });
    }
    const [a, b] = await rows();
    expect(a).toMatchObject({ spam: true, status: "open" });
    expect(a.spam_signals.reasons).toEqual(["honeypot_filled"]);
    expect(b).toMatchObject({ spam: true });
    expect(b.spam_signals).toEqual({ honeypotFilled: false, completedTooFast: true, completionSeconds: 1.5, reasons: ["completed_too_fast"] });
  });
});

describe("Idempotency-Key on reports", () => {
  const KEY = "report-key-0000000000000001";
  test("the same key, event and body twice: one report, the same 201 twice, and the retry counts against no limit", async () => {
    const body = { kind: "wrong_time", text: "Starts at 21:00", formStartedAt: STARTED };
    const first = await report(CANAL, body, { "idempotency-key": KEY });
    const firstBody = await first.json();
    // Past the per-event limit (3 an hour) with the same key: always the first answer.
    for (let i = 0; i < 4; i++) {
      const again = await report(CANAL, body, { "idempotency-key": KEY });
      expect(again.status).toBe(201);
      expect(await again.json()).toEqual(firstBody);
    }
    expect(first.status).toBe(201);
    expect((await rows()).map((r) => r.idempotency_key)).toEqual([KEY]);
    const [counter] = await ctx.deps.database.query<{ count: number }>(sql`select count from rate_limit_counters where scope = 'event_report_event_ip'`);
    expect(counter!.count).toBe(1);
  });

  test("the key with another body or another event is 409, a malformed key 400; nothing more is stored", async () => {
    expect((await report(CANAL, { kind: "cancelled", formStartedAt: STARTED }, { "idempotency-key": KEY })).status).toBe(201);
    const other = await report(CANAL, { kind: "other", formStartedAt: STARTED }, { "idempotency-key": KEY });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ success: false, error: "This Idempotency-Key was already used with another request" });
    expect((await report(ROOFTOP, { kind: "cancelled", formStartedAt: STARTED }, { "idempotency-key": KEY })).status).toBe(409);
    for (const bad of ["short", "x".repeat(101), "has spaces in the key!!"]) expect((await report(CANAL, { kind: "cancelled" }, { "idempotency-key": bad })).status).toBe(400);
    expect(await count()).toBe(1);
  });

  test("the form's hidden key: shown again with a refused form, so sending it again is the same report", async () => {
    const refused = await formPost(CANAL, { kind: "nonsense", formStartedAt: STARTED }, HTMX_HEADERS);
    expect(refused.status).toBe(400);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(await refused.text())?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    for (let i = 0; i < 2; i++) expect((await formPost(CANAL, { kind: "cancelled", formStartedAt: STARTED, idempotencyKey: key! }, HTMX_HEADERS)).status).toBe(200);
    expect((await rows()).map((r) => r.idempotency_key)).toEqual([key]);
  });
});

describe("POST /event/:key/report (the modal's form)", () => {
  test("the modal carries the form; without JavaScript a page with the thanks and a link back to the event", async () => {
    const modal = await (await ctx.request(`/?event=${CANAL}`, { headers: HTMX_HEADERS })).text();
    expect(modal).toContain(`action="/event/${CANAL}/report"`);
    expect(modal).toContain(`hx-post="/event/${CANAL}/report"`);
    expect(modal).toContain("Report a problem");
    for (const kind of ["cancelled", "wrong_place", "wrong_time", "other"]) expect(modal).toContain(`value="${kind}"`);

    const res = await formPost(CANAL, { kind: "wrong_time", text: "Starts at 19:00", website: "", formStartedAt: "" });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toStartWith("<!doctype html>");
    expect(page).toContain("Thank you! The team will check this event.");
    expect(page).toContain("<h1>Canal Amapiano Sunset</h1>");
    expect(page).toContain('href="/?event=evt_fixture000001&amp;slug=');
    expect(await rows()).toMatchObject([{ event_key: CANAL, kind: "wrong_time", text: "Starts at 19:00", spam: false }]);
  });

  test("with htmx the answer is the section: the thanks, or the form with its error and what was typed (400)", async () => {
    const bad = await formPost(CANAL, { text: "<b>no kind</b>" }, HTMX_HEADERS);
    expect(bad.status).toBe(400);
    const section = await bad.text();
    expect(section).toStartWith('<details id="event-report"');
    expect(section).toContain("Choose what is wrong.");
    expect(section).toContain("&lt;b&gt;no kind&lt;/b&gt;");
    expect(section).not.toContain("<b>no kind</b>");
    expect(await count()).toBe(0);

    const ok = await formPost(CANAL, { kind: "cancelled", website: "" }, HTMX_HEADERS);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toStartWith('<section id="event-report" class="report report-done"');
    // The visible honeypot field of the form flags the report.
    ctx.clock.advance(1000);
    expect((await formPost(ROOFTOP, { kind: "cancelled", website: "spam" }, HTMX_HEADERS)).status).toBe(200);
    expect((await rows()).map((r) => r.spam)).toEqual([false, true]);
  });

  test("French first: the form and its answers in French; 403 cross-site, 404 unknown", async () => {
    // The test helpers' root language is English; French lives under /fr/.
    const fr = {};
    const modal = await (await ctx.request(`/fr/?event=${CANAL}`, { headers: { ...HTMX_HEADERS, ...fr } })).text();
    expect(modal).toContain("Signaler un problème");
    expect(modal).toContain("Mauvais horaire");
    const ok = await formPost(CANAL, { kind: "cancelled" }, { ...HTMX_HEADERS, ...fr }, "/fr");
    expect(await ok.text()).toContain("Merci ! L&#x27;équipe va vérifier cet événement.");
    const cross = await formPost(CANAL, { kind: "cancelled" }, { ...fr, origin: "https://evil.example" }, "/fr");
    expect(cross.status).toBe(403);
    expect(await cross.text()).toContain("Demande refusée");
    const unknown = await formPost("evt_nothing000000", { kind: "cancelled" }, { ...HTMX_HEADERS, ...fr }, "/fr");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Cet événement n&#x27;est plus au programme.");
    expect(await count()).toBe(1);
  });
});

describe("console: reports grouped by event", () => {
  async function seedReports() {
    const send = (key: string, kind: string, text: string, ip: string, extra: Record<string, unknown> = {}) => report(key, { kind, text, formStartedAt: STARTED, ...extra }, { "x-forwarded-for": ip });
    expect((await send(CANAL, "cancelled", "Rain, stage closed", "192.0.2.1")).status).toBe(201);
    ctx.clock.advance(60_000);
    expect((await send(CANAL, "cancelled", "rain,  stage closed", "192.0.2.2")).status).toBe(201);
    ctx.clock.advance(60_000);
    expect((await send(CANAL, "cancelled", "Nobody here", "192.0.2.3")).status).toBe(201);
    ctx.clock.advance(60_000);
    expect((await send(CANAL, "wrong_time", "", "192.0.2.4")).status).toBe(201);
    expect((await send(ROOFTOP, "wrong_place", "It is at number 12", "192.0.2.5")).status).toBe(201);
    expect((await send(ROOFTOP, "cancelled", "spam spam", "192.0.2.6", { honeypot: "x" })).status).toBe(201);
  }

  test("GET /api/admin/reports: open reports grouped by event, spam hidden but counted; 401 without admin", async () => {
    await seedReports();
    expect((await ctx.request("/api/admin/reports")).status).toBe(401);
    const body = await (await ctx.request("/api/admin/reports", { headers: ADMIN_KEY_HEADER })).json();
    expect(body).toMatchObject({ success: true, openCount: 5, eventCount: 2, spamCount: 1 });
    expect(body.groups).toHaveLength(2);
    const [canal, rooftop] = body.groups;
    expect(canal).toMatchObject({
      eventKey: CANAL,
      title: "Canal Amapiano Sunset",
      total: 4,
      counts: { cancelled: 3, wrong_place: 0, wrong_time: 1, other: 0 },
      firstAt: "2026-06-21T19:30:00.000Z",
      lastAt: "2026-06-21T19:33:00.000Z",
      cancelNote: "rain, stage closed",
    });
    expect(canal.texts.map((t: { text: string }) => t.text)).toEqual(["Nobody here", "rain,  stage closed", "Rain, stage closed"]);
    expect(rooftop).toMatchObject({ eventKey: ROOFTOP, total: 1, counts: { wrong_place: 1, cancelled: 0 }, cancelNote: "" });
    const all = await (await ctx.request("/api/admin/reports?spam=include", { headers: ADMIN_KEY_HEADER })).json();
    expect(all.groups.find((g: { eventKey: string }) => g.eventKey === ROOFTOP).total).toBe(2);
  });

  test("mark cancelled: the public event shows cancelled with the most common short reason, its reports are resolved; dismiss closes the others", async () => {
    await seedReports();
    const before = await (await ctx.request(`/api/events/${CANAL}`)).json();
    expect(before.event.status).toBe("scheduled");
    ctx.clock.advance(60_000);

    const cancelled = await ctx.request(`/api/admin/reports/${CANAL}/cancel`, { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ success: true, eventKey: CANAL, title: "Canal Amapiano Sunset", status: "cancelled", note: "rain, stage closed", resolved: 4 });
    const after = await (await ctx.request(`/api/events/${CANAL}`)).json();
    expect(after.event).toMatchObject({ status: "cancelled", statusNote: "rain, stage closed" });
    const list = await (await ctx.request("/api/events")).json();
    expect(list.events.find((e: { eventKey: string }) => e.eventKey === CANAL).status).toBe("cancelled");
    expect(list.events.find((e: { eventKey: string }) => e.eventKey === ROOFTOP).status).toBe("scheduled");
    const canalRows = (await rows()).filter((r) => r.event_key === CANAL);
    expect(canalRows.map((r) => r.status)).toEqual(["resolved", "resolved", "resolved", "resolved"]);
    expect(canalRows.every((r) => r.resolved_by === "admin-key" && new Date(r.resolved_at).toISOString() === "2026-06-21T19:34:00.000Z")).toBe(true);
    // Handled: a second click says so.
    expect((await ctx.request(`/api/admin/reports/${CANAL}/cancel`, { method: "POST", headers: ADMIN_KEY_HEADER })).status).toBe(409);

    const dismissed = await ctx.request(`/api/admin/reports/${ROOFTOP}/dismiss`, { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(await dismissed.json()).toEqual({ success: true, eventKey: ROOFTOP, title: "Belleville Rooftop House", dismissed: 2 });
    expect((await rows()).filter((r) => r.event_key === ROOFTOP).map((r) => r.status)).toEqual(["dismissed", "dismissed"]);
    expect((await (await ctx.request(`/api/events/${ROOFTOP}`)).json()).event.status).toBe("scheduled");
    expect(await (await ctx.request("/api/admin/reports", { headers: ADMIN_KEY_HEADER })).json()).toMatchObject({ groups: [], openCount: 0, spamCount: 0 });
    expect((await ctx.request(`/api/admin/reports/${ROOFTOP}/dismiss`, { method: "POST", headers: ADMIN_KEY_HEADER })).status).toBe(409);
  });

  test("a long reason is not made public: mark cancelled then sets no note", async () => {
    const long = "The organiser told everyone on the square that the concert would not happen tonight because the sound system was stolen during the afternoon setup";
    expect(long.length).toBeGreaterThan(140);
    expect((await report(PIGALLE, { kind: "cancelled", text: long, formStartedAt: STARTED })).status).toBe(201);
    const res = await ctx.request(`/api/admin/reports/${PIGALLE}/cancel`, { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(await res.json()).toMatchObject({ success: true, note: "", resolved: 1 });
    expect((await (await ctx.request(`/api/events/${PIGALLE}`)).json()).event).toMatchObject({ status: "cancelled", statusNote: "" });
  });

  test("the /admin/content card: groups, counts, one-click Mark cancelled and Dismiss through htmx", async () => {
    await seedReports();
    const page = await (await ctx.request("/admin/content", { headers: ADMIN_KEY_HEADER })).text();
    expect(page).toContain(">Reports from visitors</h2>");
    expect(page).toContain("Canal Amapiano Sunset");
    expect(page).toContain("4 reports: Cancelled 3 · Wrong time 1");
    expect(page).toContain("Spam-flagged (hidden)");
    expect(page).not.toContain("spam spam");
    expect(page).toContain("with the public reason “rain, stage closed”");

    const hx = { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS };
    const cancel = await ctx.request(`/admin/content/reports/${CANAL}/cancel`, { method: "POST", headers: hx });
    expect(cancel.status).toBe(200);
    const card = await cancel.text();
    expect(card).toStartWith('<section id="reports-card"');
    expect(card).toContain("“Canal Amapiano Sunset” is now shown as cancelled with the reason “rain, stage closed”; 4 reports resolved");
    expect(card).not.toContain(`data-report-event="${CANAL}"`);
    expect((await (await ctx.request(`/api/events/${CANAL}`)).json()).event.status).toBe("cancelled");

    const dismiss = await ctx.request(`/admin/content/reports/${ROOFTOP}/dismiss`, { method: "POST", headers: hx });
    const after = await dismiss.text();
    expect(after).toContain("Dismissed 2 reports on “Belleville Rooftop House”");
    expect(after).toContain("No open reports.");
    const again = await ctx.request(`/admin/content/reports/${ROOFTOP}/dismiss`, { method: "POST", headers: hx });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This event has no open reports");
  });
});

describe("insights count reports", () => {
  test("the window's reports: total, per kind, events with reports, still open; spam counted apart; older ones outside", async () => {
    ctx.clock.set("2026-06-11T12:00:00Z");
    expect((await report(BRUNCH, { kind: "other", formStartedAt: "2026-06-11T11:58:00Z" })).status).toBe(201);
    ctx.clock.set("2026-06-21T19:30:00Z");
    expect((await report(CANAL, { kind: "cancelled", formStartedAt: STARTED })).status).toBe(201);
    expect((await report(CANAL, { kind: "wrong_time", formStartedAt: STARTED }, { "x-forwarded-for": "192.0.2.7" })).status).toBe(201);
    expect((await report(ROOFTOP, { kind: "wrong_place", formStartedAt: STARTED })).status).toBe(201);
    expect((await report(ROOFTOP, { kind: "cancelled", honeypot: "x" }, { "x-forwarded-for": "192.0.2.8" })).status).toBe(201);
    expect((await ctx.request(`/api/admin/reports/${ROOFTOP}/dismiss`, { method: "POST", headers: ADMIN_KEY_HEADER })).status).toBe(200);
    // The window is [now − N days, now).
    ctx.clock.advance(60_000);

    const week = await (await ctx.request("/api/admin/insights?windowDays=7", { headers: ADMIN_KEY_HEADER })).json();
    expect(week.reports).toEqual({ total: 3, perKind: { cancelled: 1, wrong_place: 1, wrong_time: 1, other: 0 }, eventsWithReports: 2, openCount: 2, spamCount: 1 });
    const month = await (await ctx.request("/api/admin/insights?windowDays=30", { headers: ADMIN_KEY_HEADER })).json();
    expect(month.reports).toMatchObject({ total: 4, perKind: { other: 1 }, eventsWithReports: 3, openCount: 3 });

    const page = await (await ctx.request("/admin/insights?windowDays=7", { headers: ADMIN_KEY_HEADER })).text();
    expect(page).toContain('hx-get="/admin/insights/reports?windowDays=7"');
    const block = await (await ctx.request("/admin/insights/reports?windowDays=7", { headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } })).text();
    expect(block).toStartWith('<section id="insights-reports"');
    expect(block).toContain("Reports from visitors, last 7 days");
    expect(block).toMatch(/Events with reports<\/span><strong class="tile-value">2</);
    expect(block).toMatch(/Spam-flagged<\/span><strong class="tile-value">1</);
  });
});
