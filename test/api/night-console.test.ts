// "The night console sees the street", over HTTP on the real app and database, email through a
// real SMTP server on loopback: the Action Center fragments (badge and overview) count what waits
// by kind and move when a report is filed and resolved; "Mark cancelled and publish" shows the
// event cancelled on `/` and resolves its reports, and is refused with nothing written when the
// event left the sheet; a "cancelled" report alerts TEAM_EMAIL once (another kind never); a host's
// cancellation emails the host a confirmation; MAIL_REPLY_TO sets the Reply-To.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { HTMX_HEADERS, postJson, useTestApp, withTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../helpers/smtp.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { saveStoreSheet, findStoreMeta } from "../../src/lib/store/store.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { withPrivateLinks } from "../../src/lib/mail/secret-links.ts";
import { mailOf } from "../../src/lib/mail/worker.ts";
import { ConfigError, loadConfig } from "../../src/lib/config.ts";
import { testEnv } from "../helpers/app.ts";
import type { OutboxMessage } from "../../src/lib/mail/outbox.ts";

const CANAL = "evt_fixture000001";
const ROOFTOP = "evt_fixture000002";
const TEAM = "night-team@example.org";
const REPLY_TO = "hello@finder.example";
const STARTED = (now: Date) => new Date(now.getTime() - 120_000).toISOString();

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

// The default test clock (2026-06-21T10:00:00Z, the festival day).
const ctx = useTestApp(() => ({ env: { DATA_MODE: "remote", SMTP_URL: smtp.url, TEAM_EMAIL: TEAM, MAIL_REPLY_TO: REPLY_TO } }));

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-21T10:00:00Z");
  smtp.received.length = 0;
  const saved = await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
});

let ip = 0;
const report = (key: string, kind: string, text = "") => postJson(ctx, `/api/events/${key}/reports`, { kind, text, formStartedAt: STARTED(ctx.clock.now()) }, { "x-forwarded-for": `198.51.100.${++ip % 250}` });
const admin = (path: string, init: RequestInit = {}) => ctx.request(path, { ...init, headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS, ...(init.headers as Record<string, string>) } });
const query = <T,>(statement: ReturnType<typeof sql>) => ctx.deps.database.query<T>(statement);
const kindCount = (html: string, kind: string) => html.match(new RegExp(`data-action-kind="${kind}" data-count="(\\d*)"`))?.[1];
const mailsOf = (kind: string) => smtp.received.filter((m) => m.parsed.headers.get("x-finder-message") === kind);
const recipient = (mail: ReceivedMail) => mail.envelopeTo.join(",");

describe("Action Center: the badge and the overview count what waits, by kind, and refresh", () => {
  test("both fragments are admin-only, never cached, poll every 10 s, and each kind links to its card", async () => {
    for (const path of ["/admin/action-center", "/admin/action-center/overview"]) {
      expect((await ctx.request(path)).status).toBe(401);
      const res = await admin(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(res.headers.get("cache-control")).toContain("private");
      const html = await res.text();
      expect(html).toContain(`hx-get="${path}"`);
      expect(html).toContain('hx-trigger="every 10s"');
      // A fragment never triggers itself on load (it would be fetched again at once, without end).
      expect(html).not.toContain("load,");
    }
    const overview = await (await admin("/admin/action-center/overview")).text();
    for (const href of ["/admin/content#reports-card", "/admin/content#host-changes-card", "/admin/operations/outbox?status=failed", "/admin/content#publishing", "/admin/content?status=pending#submissions-card", "/admin/placements#orders"]) {
      expect(overview).toContain(`href="${href}"`);
    }
    // The page: the badge in the header and the panel on the overview, loaded at once and then polled.
    const page = await (await ctx.request("/admin", { headers: ADMIN_KEY_HEADER })).text();
    expect(page).toContain('id="action-center"');
    expect(page).toContain('id="action-center-panel"');
    expect(page).toContain('hx-trigger="load, every 10s"');
  });

  test("a street report moves the counts within a poll; resolving it moves them back", async () => {
    const before = await (await admin("/admin/action-center/overview")).text();
    expect(kindCount(before, "reports")).toBe("0");
    expect(kindCount(before, "drafts")).toBe("0");
    expect(await (await admin("/admin/action-center")).text()).toContain("Action Center 0");

    expect((await report(CANAL, "wrong_time", "It starts at 19:00")).status).toBe(201);
    expect((await report(ROOFTOP, "cancelled", "Closed")).status).toBe(201);
    const filed = await (await admin("/admin/action-center/overview")).text();
    expect(kindCount(filed, "reports")).toBe("2");
    const badge = await (await admin("/admin/action-center")).text();
    expect(badge).toContain("Action Center 2");
    expect(badge).toContain('href="/admin/content#reports-card" data-action-kind="reports">2 reports</a>');
    // The badge of any console page shows it too.
    expect(await (await ctx.request("/admin/operations", { headers: ADMIN_KEY_HEADER })).text()).toContain("Action Center 2");

    expect((await admin(`/admin/content/reports/${ROOFTOP}/cancel`, { method: "POST" })).status).toBe(200);
    expect(kindCount(await (await admin("/admin/action-center/overview")).text(), "reports")).toBe("1");
    expect((await admin(`/admin/content/reports/${CANAL}/dismiss`, { method: "POST" })).status).toBe(200);
    const after = await (await admin("/admin/action-center/overview")).text();
    expect(kindCount(after, "reports")).toBe("0");
    // The status change published itself alone: nothing is left unpublished.
    expect(kindCount(after, "drafts")).toBe("0");
  });

  test("failed emails, pending host changes and unpublished drafts are counted too", async () => {
    await query(sql`insert into outbox_messages (dedupe_key, kind, language, recipient, params, status, next_attempt_at, created_at, updated_at)
      values ('test:failed', 'submission_received', 'en', 'a@example.com', '{}'::jsonb, 'failed', now(), now(), now())`);
    const draft = FIXTURE_SHEET_CSV.replace("Canal Amapiano Sunset", "Canal Amapiano Sunrise");
    const saved = await saveStoreSheet(ctx.deps.db, draft, { updatedBy: "admin-sheet-editor", origin: "manual", now: ctx.clock.now(), publish: false });
    if (!saved.ok) throw new Error(saved.error);
    const html = await (await admin("/admin/action-center/overview")).text();
    expect(kindCount(html, "failedEmails")).toBe("1");
    expect(kindCount(html, "drafts")).toBe("1");
    expect(kindCount(html, "hostChanges")).toBe("0");
  });
});

describe("Mark cancelled and publish, from a report", () => {
  test("the event shows as cancelled on / at once, the report is resolved, the card comes back refreshed", async () => {
    const home = await (await ctx.request("/")).text();
    expect(home).toMatch(new RegExp(`data-event-key="${CANAL}"(?! data-status)`));
    expect((await report(CANAL, "cancelled", "Rain, stage closed")).status).toBe(201);

    const res = await admin(`/admin/content/reports/${CANAL}/cancel`, { method: "POST" });
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toStartWith('<section id="reports-card"');
    expect(card).toContain("is now shown as cancelled");
    expect(card).toContain("No open reports.");

    expect(await (await ctx.request("/")).text()).toMatch(new RegExp(`data-event-key="${CANAL}"\\s+data-status="cancelled"`));
    const [row] = await query<{ status: string; resolved_by: string }>(sql`select status, resolved_by from event_reports where event_key = ${CANAL}`);
    expect(row).toEqual({ status: "resolved", resolved_by: "admin-key" });
  });

  test("an event no longer in the sheet is refused and nothing changes: the report stays open, no revision, no status", async () => {
    expect((await report(CANAL, "cancelled", "Gone")).status).toBe(201);
    const without = FIXTURE_SHEET_CSV.split("\n").filter((line) => !line.includes(CANAL)).join("\n");
    const saved = await saveStoreSheet(ctx.deps.db, without, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
    if (!saved.ok) throw new Error(saved.error);
    const revision = (await findStoreMeta(ctx.deps.db))!.revision;
    const activity = await query<{ n: number }>(sql`select count(*)::int as n from admin_activity`);

    const res = await admin(`/admin/content/reports/${CANAL}/cancel`, { method: "POST" });
    expect(res.status).toBe(404);
    const card = await res.text();
    expect(card).toStartWith('<section id="reports-card"');
    expect(card).toContain("No event has this key");
    expect(card).toContain(`data-report-event="${CANAL}"`);

    expect((await findStoreMeta(ctx.deps.db))!.revision).toBe(revision);
    expect(await query<{ status: string }>(sql`select status from event_reports where event_key = ${CANAL}`)).toEqual([{ status: "open" }]);
    expect(await query<{ n: number }>(sql`select count(*)::int as n from admin_activity`)).toEqual(activity);
    // The same through the JSON API.
    expect((await ctx.request(`/api/admin/reports/${CANAL}/cancel`, { method: "POST", headers: ADMIN_KEY_HEADER })).status).toBe(404);
    expect(await query<{ status: string }>(sql`select status from event_reports where event_key = ${CANAL}`)).toEqual([{ status: "open" }]);
  });
});

describe("team alerts and the host's confirmation, through the outbox and SMTP", () => {
  test("TEAM_EMAIL gets exactly one alert for a cancellation report (none for another kind, none for a second report of the event), without the reporter", async () => {
    expect((await report(ROOFTOP, "wrong_place", "It is at number 12")).status).toBe(201);
    expect((await report(CANAL, "cancelled", "Rain, stage closed: call me at 06 12 34 56 78")).status).toBe(201);
    ctx.clock.advance(60_000);
    expect((await report(CANAL, "cancelled", "Nobody here")).status).toBe(201);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1, failed: 0 });

    const alerts = mailsOf("team_alert");
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(recipient(alert)).toBe(TEAM);
    expect(alert.parsed.subject).toBe("Reported cancelled: “Canal Amapiano Sunset”");
    expect(alert.parsed.text).toContain(CANAL);
    expect(alert.parsed.text).toContain("http://finder.test/admin/content#reports-card");
    expect(alert.parsed.html as string).toContain('href="http://finder.test/admin/content#reports-card"');
    // Nothing of the reporter: no text, no IP.
    expect(alert.raw).not.toContain("06 12 34 56 78");
    expect(alert.raw).not.toContain("198.51.100.");
    expect(alert.parsed.replyTo?.text).toBe(REPLY_TO);

    // Once its reports are handled, a new cancellation report alerts again.
    expect((await admin(`/admin/content/reports/${CANAL}/dismiss`, { method: "POST" })).status).toBe(200);
    expect((await report(CANAL, "cancelled", "")).status).toBe(201);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(mailsOf("team_alert")).toHaveLength(2);
  });

  test("without TEAM_EMAIL a cancellation report queues nothing", async () => {
    await withTestApp({ env: { DATA_MODE: "remote", TEAM_EMAIL: undefined }, keepData: true, clock: ctx.clock }, async (bare) => {
      const res = await postJson(bare, `/api/events/${CANAL}/reports`, { kind: "cancelled", formStartedAt: STARTED(ctx.clock.now()) }, { "x-forwarded-for": "192.0.2.77" });
      expect(res.status).toBe(201);
    });
    expect(await query<{ n: number }>(sql`select count(*)::int as n from outbox_messages`)).toEqual([{ n: 0 }]);
  });

  test("a host's cancellation through the edit link: the host gets a confirmation, the team an alert, each once", async () => {
    ctx.clock.set("2026-06-18T10:00:00Z");
    const outcome = await submitEvent(
      ctx.deps,
      { eventName: "Canal Session", date: "2026-06-21", startTime: "19:00", endTime: "23:00", location: "Quai de Valmy", arrondissement: "10", hostEmail: "host@example.com", proofLink: "canal.example/1", notes: "" },
      "192.0.2.40",
      "en",
    );
    if (outcome.kind !== "received") throw new Error(JSON.stringify(outcome));
    const accepted = await ctx.request(`/api/admin/submissions/${outcome.id}/accept`, { method: "POST", headers: { ...ADMIN_KEY_HEADER, "content-type": "application/json" }, body: "{}" });
    expect(accepted.status).toBe(200);
    const eventKey = ((await accepted.json()) as { eventKey: string }).eventKey;
    const [queued] = await query<{ language: string; params: Record<string, unknown> }>(sql`select language, params from outbox_messages where dedupe_key = ${`submission:${outcome.id}:accepted`}`);
    const url = new URL(String(withPrivateLinks(ctx.deps.config, "submission_accepted", queued.language, queued.params, "send").editUrl));
    const cancel = () =>
      ctx.request(`${url.pathname}/cancel`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: url.searchParams.get("token")!, confirm: "yes", note: "Storm warning" }).toString(),
      });
    expect((await cancel()).status).toBe(200);
    // A second post (a double click) emails nobody again.
    ctx.clock.advance(1000);
    expect((await cancel()).status).toBe(200);
    await ctx.deps.outbox.drain();

    const confirmations = mailsOf("cancellation_confirmed");
    expect(confirmations).toHaveLength(1);
    expect(recipient(confirmations[0])).toBe("host@example.com");
    expect(confirmations[0].parsed.subject).toBe("“Canal Session” is cancelled");
    expect(confirmations[0].parsed.text).toContain("Reason shown to visitors: Storm warning");
    expect(confirmations[0].parsed.text).toContain(`/event/${eventKey}/canal-session`);
    expect(confirmations[0].parsed.replyTo?.text).toBe(REPLY_TO);
    const alerts = mailsOf("team_alert");
    expect(alerts).toHaveLength(1);
    expect(recipient(alerts[0])).toBe(TEAM);
    expect(alerts[0].parsed.subject).toBe("Cancelled by its host: “Canal Session”");
    expect(alerts[0].parsed.text).toContain("Public reason: Storm warning");
    expect(alerts[0].raw).not.toContain("host@example.com");
  });
});

describe("MAIL_REPLY_TO", () => {
  const message = { id: "3f0c6a1e-2b7d-4c59-9a43-1d2e5f6a7b8c", kind: "submission_received", language: "en", recipient: "a@example.com" } as OutboxMessage;
  const rendered = { subject: "s", text: "t", html: "h" };

  test("sets the Reply-To of every message; unset, replies reach the partnership address", () => {
    expect(mailOf(message, rendered, { siteUrl: "http://finder.test", mailReplyTo: REPLY_TO, partnerEmail: "team@finder.test" }).replyTo).toBe(REPLY_TO);
    expect(mailOf(message, rendered, { siteUrl: "http://finder.test", mailReplyTo: undefined, partnerEmail: "team@finder.test" }).replyTo).toBe("team@finder.test");
  });

  test("is checked as an email address at start, like TEAM_EMAIL", () => {
    expect(loadConfig(testEnv({ MAIL_REPLY_TO: REPLY_TO, TEAM_EMAIL: TEAM })).mailReplyTo).toBe(REPLY_TO);
    for (const env of [{ MAIL_REPLY_TO: "not an address" }, { TEAM_EMAIL: "team@" }]) {
      expect(() => loadConfig(testEnv(env))).toThrow(ConfigError);
    }
  });
});
