// The activity timeline at the HTTP boundary: admin actions (accept, decline, publish, restore,
// fulfil, order status, resend, erase) are recorded with actor, time, target and outcome; the
// JSON API and the console page filter them; the daily purge keeps them for the retention period.
// The outbox console without SMTP_URL: messages stay queued and can be read in full.

import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";

const ADMIN = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };
const CRON_SECRET = "cron-secret-activity-0123456789";
const ctx = useTestApp({ env: { CRON_SECRET, DATA_MODE: "remote" } });

beforeAll(async () => {
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const call = async (method: string, path: string, body?: unknown) => {
  const res = await ctx.request(path, { method, headers: ADMIN, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const submit = (name: string, n: number) =>
  ctx.request("/api/event-submissions", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${n}` },
    body: JSON.stringify({ eventName: name, date: "2026-06-21", startTime: "18:00", location: `Venue ${n}`, hostEmail: `h${n}@example.org`, proofLink: `https://x.example/${n}`, formStartedAt: "2026-06-18T09:50:00.000Z" }),
  });

describe("admin actions on the timeline", () => {
  let acceptedId = "";
  let declinedId = "";
  let orderId = "";

  test("accept, decline, publish, restore, fulfil and an order status change are each recorded with actor, target and outcome", async () => {
    expect((await submit("Accept Me", 1)).status).toBe(200);
    expect((await submit("Decline Me", 2)).status).toBe(200);
    const pending = (await call("GET", "/api/admin/submissions?status=pending")).body.submissions as { id: string; payload: { eventName: string } }[];
    acceptedId = pending.find((s) => s.payload.eventName === "Accept Me")!.id;
    declinedId = pending.find((s) => s.payload.eventName === "Decline Me")!.id;
    expect((await call("POST", `/api/admin/submissions/${acceptedId}/accept`, {})).status).toBe(200);
    ctx.clock.advance(60_000);
    expect((await call("POST", `/api/admin/submissions/${declinedId}/decline`, { reason: "unable_to_verify" })).status).toBe(200);
    ctx.clock.advance(60_000);
    const sheet = (await call("GET", "/api/admin/sheet")).body;
    const published = await call("PUT", "/api/admin/sheet", { baseRevision: sheet.meta.revision, publish: true, columns: sheet.columns.map(({ key, label }: { key: string; label: string }) => ({ key, label })), rows: sheet.rows.map((r: { id: string; values: Record<string, string> }) => ({ id: r.id, values: r.values })) });
    expect(published.status).toBe(200);
    ctx.clock.advance(60_000);
    const revisions = (await call("GET", "/api/admin/sheet/revisions")).body;
    const oldest = (revisions.revisions ?? revisions).at(-1);
    expect((await call("POST", `/api/admin/sheet/revisions/${oldest.id}/restore`)).status).toBe(200);
    ctx.clock.advance(60_000);
    const live = (await (await ctx.request("/api/events")).json()) as any;
    const eventKey = (live.events ?? live.data ?? [])[0]?.eventKey ?? (await call("GET", "/api/admin/sheet")).body.rows[0].values.eventKey;
    const order = await call("POST", "/api/admin/orders/test", { eventKey, tier: "promoted", startAt: "2026-06-20T12:00", durationHours: 4 });
    expect(order.status).toBe(201);
    orderId = order.body.order.id;
    ctx.clock.advance(60_000);
    expect((await call("PATCH", `/api/admin/orders/${orderId}`, { status: "dismissed" })).status).toBe(200);

    const { body } = await call("GET", "/api/admin/activity");
    const entries = body.entries as { action: string; actor: string; targetType: string; targetId: string | null; outcome: string; at: string }[];
    expect(entries.map((e) => e.action)).toEqual(["order.status", "order.fulfil", "sheet.restore", "sheet.publish", "submission.decline", "submission.accept"]);
    for (const e of entries) {
      expect(e.actor).toBe("admin-key");
      expect(e.outcome).toBe("ok");
      expect(Number.isNaN(Date.parse(e.at))).toBe(false);
    }
    expect(entries.find((e) => e.action === "submission.accept")).toMatchObject({ targetType: "submission", targetId: acceptedId, at: "2026-06-18T10:00:00.000Z" });
    expect(entries.find((e) => e.action === "submission.decline")).toMatchObject({ targetType: "submission", targetId: declinedId });
    expect(entries.find((e) => e.action === "sheet.restore")).toMatchObject({ targetType: "revision", targetId: oldest.id });
    expect(entries.find((e) => e.action === "order.fulfil")).toMatchObject({ targetType: "order", targetId: orderId });
    expect(entries.find((e) => e.action === "order.status")).toMatchObject({ targetType: "order", targetId: orderId });
  });

  test("a refused action is recorded as failed", async () => {
    const res = await call("POST", "/api/admin/sheet/revisions/00000000-0000-4000-8000-000000000000/restore");
    expect(res.status).toBe(404);
    const sheet = (await call("GET", "/api/admin/sheet")).body;
    const stale = await call("PUT", "/api/admin/sheet", { baseRevision: sheet.meta.revision - 1, publish: true, columns: sheet.columns.map(({ key, label }: { key: string; label: string }) => ({ key, label })), rows: sheet.rows.map((r: { id: string; values: Record<string, string> }) => ({ id: r.id, values: r.values })) });
    expect(stale.status).toBe(409);
    const failed = (await call("GET", "/api/admin/activity?outcome=failed")).body.entries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ action: "sheet.publish", outcome: "failed", actor: "admin-key" });
  });

  test("filters: area, exact action, target, actor, outcome and days; bad filters are 400", async () => {
    const actions = async (query: string) => ((await call("GET", `/api/admin/activity?${query}`)).body.entries as { action: string }[]).map((e) => e.action);
    expect(await actions("action=submission")).toEqual(["submission.decline", "submission.accept"]);
    expect(await actions("action=order.fulfil")).toEqual(["order.fulfil"]);
    expect(await actions(`target=${orderId}`)).toEqual(["order.status", "order.fulfil"]);
    expect(await actions("actor=someone-else")).toEqual([]);
    expect((await actions("actor=admin-key")).length).toBe(7);
    expect((await actions("from=2026-06-18&to=2026-06-18")).length).toBe(7);
    expect(await actions("from=2026-06-19")).toEqual([]);
    for (const bad of ["action=drop.tables", "outcome=maybe", "from=yesterday", "to=2026-13-45"]) {
      const res = await call("GET", `/api/admin/activity?${bad}`);
      expect({ bad, status: res.status, success: res.body.success }).toEqual({ bad, status: 400, success: false });
    }
    expect((await ctx.request("/api/admin/activity")).status).toBe(401);
  });

  test("the console page lists the actions with their filters; a bad filter is a 400 page", async () => {
    const page = await ctx.request("/admin/operations/activity?action=submission", { headers: { "x-admin-key": TEST_ADMIN_KEY } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Activity timeline");
    expect([...html.matchAll(/<tr data-action="([^"]+)"/g)].map((m) => m[1])).toEqual(["submission.decline", "submission.accept"]);
    expect(html).toContain(`submission ${acceptedId}`);
    expect(html).toContain('<option value="submission" selected>');
    const bad = await ctx.request("/admin/operations/activity?outcome=%3Cscript%3E", { headers: { "x-admin-key": TEST_ADMIN_KEY } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain("<script>");
  });

  test("kept for TRACKING_RETENTION_DAYS: the daily purge deletes older actions only", async () => {
    const days = ctx.config.trackingRetentionDays;
    const old = new Date(ctx.clock.now().getTime() - (days + 1) * 86_400_000).toISOString();
    await ctx.deps.database.query(sql`insert into admin_activity (at, actor, action, target_type, outcome) values (${old}::timestamptz, 'admin-key', 'store.backup', 'store', 'ok')`);
    expect((await call("GET", "/api/admin/activity?action=store")).body.entries).toHaveLength(1);
    const res = await ctx.request("/api/cron/purge-submissions", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(await res.json()).toMatchObject({ ok: true, deletedActivity: 1 });
    expect((await call("GET", "/api/admin/activity?action=store")).body.entries).toHaveLength(0);
    expect(((await call("GET", "/api/admin/activity")).body.entries as unknown[]).length).toBe(7);
  });
});

describe("the outbox console without SMTP_URL", () => {
  test("messages stay queued; the console says why, shows each in full (both parts), and Resend refuses a queued one", async () => {
    expect(ctx.deps.outbox.enabled).toBe(false);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ enabled: false, sent: 0 });
    const listed = (await call("GET", "/api/admin/outbox")).body;
    expect(listed.smtpConfigured).toBe(false);
    expect(listed.counts.queued).toBeGreaterThanOrEqual(3);
    const accepted = listed.messages.find((m: { kind: string }) => m.kind === "submission_accepted");
    expect(accepted).toMatchObject({ status: "queued", recipient: "h1@example.org", language: "en", attempts: 0, subject: "\u201cAccept Me\u201d is live" });
    const page = await ctx.request("/admin/operations/outbox", { headers: { "x-admin-key": TEST_ADMIN_KEY } });
    const html = await page.text();
    expect(html).toContain("SMTP_URL is not set: messages stay queued here and nothing is sent.");
    expect(html).toContain(`data-message-id="${accepted.id}" data-status="queued"`);
    const one = await ctx.request(`/admin/operations/outbox/${accepted.id}`, { headers: { "x-admin-key": TEST_ADMIN_KEY } });
    expect(one.status).toBe(200);
    const full = await one.text();
    expect(full).toContain("\u201cAccept Me\u201d is live");
    expect(full).toContain("Good news: \u201cAccept Me\u201d was accepted and is now in the calendar.");
    expect(full).toContain("&lt;!doctype html&gt;");
    const resend = await call("POST", `/api/admin/outbox/${accepted.id}/resend`);
    expect(resend).toMatchObject({ status: 409, body: { success: false, error: "The message is already waiting to be sent" } });
    expect((await call("POST", "/api/admin/outbox/not-a-uuid/resend")).status).toBe(404);
    expect((await ctx.request("/admin/operations/outbox/00000000-0000-4000-8000-000000000000", { headers: { "x-admin-key": TEST_ADMIN_KEY } })).status).toBe(404);
    expect((await call("GET", "/api/admin/outbox?status=lost")).status).toBe(400);
  });
});
