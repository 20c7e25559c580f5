// Privacy kept: erasure reaches every table that holds an email (the list is read from the schema,
// so a new email column that erasure misses fails here), and the purge of old submissions runs as
// a scheduled task with the period the privacy page states.

import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../src/lib/db/schema/index.ts";
import { ERASED_EMAIL_COLUMNS } from "../../src/lib/insights/erasure.ts";
import { SUBMISSION_RETENTION_MONTHS } from "../../src/lib/submissions/retention.ts";
import { scheduledTask } from "../../src/tasks/schedule.ts";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";

const ADMIN = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };
const CRON_SECRET = "cron-secret-privacy-0123456789";
const ctx = useTestApp({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, CRON_SECRET } });

/** Every `table.column` of the schema whose name says it holds an email address. */
function emailColumnsOfSchema(): string[] {
  const found: string[] = [];
  for (const value of Object.values(schema)) {
    if (!(value instanceof PgTable)) continue;
    const config = getTableConfig(value);
    // A keyed one-way hash (limiter keys) is not an email.
    for (const column of config.columns) if (/email|recipient|e_mail|mail_to/i.test(column.name) && !column.name.endsWith("_hash")) found.push(`${config.name}.${column.name}`);
  }
  return found.sort();
}

const submit = (body: Record<string, unknown>) =>
  ctx.request("/api/event-submissions", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 200) + 1}` },
    body: JSON.stringify({ eventName: "Quai Session", date: "2026-06-21", startTime: "18:00", location: "Quai de Valmy", proofLink: "https://example.com/q", formStartedAt: "2026-06-18T09:58:00.000Z", ...body }),
  });

describe("erasure covers every table that holds an email", () => {
  test("the schema's email columns are exactly those erasure handles", () => {
    const columns = emailColumnsOfSchema();
    expect(columns.length).toBeGreaterThanOrEqual(9);
    expect(columns).toEqual(Object.keys(ERASED_EMAIL_COLUMNS).sort());
  });

  test("after POST /api/admin/users/erase no row of any table names the email; orders stay for the accounts; the timeline records it without the email", async () => {
    const email = "Erase.Me@Example.org";
    const lower = email.toLowerCase();
    // A submission (and its queued email), a paid order fulfilled (and its three emails), a sign-in, tracking.
    expect((await submit({ hostEmail: email })).status).toBe(200);
    expect((await submit({ hostEmail: "keep@example.org", eventName: "Other Session" })).status).toBe(200);
    const envelope = checkoutCompleted({ session: { customer_details: { email, name: "Erase Me" }, metadata: { package_key: "promoted-listing", event_name: "Quai Session" }, custom_fields: [] } });
    const raw = JSON.stringify(envelope);
    const hook = await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(raw, Math.floor(ctx.clock.now().getTime() / 1000)) }, body: raw });
    expect(hook.status).toBe(200);
    const orders = (await (await ctx.request("/api/admin/orders?status=pending", { headers: ADMIN })).json()) as any;
    const orderId = orders.orders[0].id;
    expect((await ctx.request(`/api/admin/orders/${orderId}/fulfil`, { method: "POST", headers: ADMIN, body: JSON.stringify({ eventKey: "evt_fixture000001", tier: "promoted", startAt: "2026-06-21T12:00", durationHours: 4 }) })).status).toBe(200);
    await ctx.deps.database.query(sql`insert into users (email, consent) values (${lower}, true)`);
    await ctx.deps.database.query(sql`insert into user_verifications (email) values (${lower})`);
    await ctx.deps.database.query(sql`insert into engagement_interactions (event_key, action_type, session_id, user_email, recorded_at) values ('evt_fixture000001', 'click', 's-erase', ${lower}, now())`);
    const [{ n: before }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from outbox_messages where lower(recipient) = ${lower}`);
    expect(Number(before)).toBe(4);

    const res = await ctx.request("/api/admin/users/erase", { method: "POST", headers: ADMIN, body: JSON.stringify({ email }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).erased).toMatchObject({ users: 1, verifications: 1, engagementRows: 1, submissions: 1, orders: 1, messages: 4 });

    const tables = await ctx.deps.database.query<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '%drizzle%'`,
    );
    expect(tables.length).toBeGreaterThan(15);
    for (const { table_name } of tables) {
      const [named] = await ctx.deps.database.query<{ n: number }>(sql.raw(`select count(*) as n from "${table_name}" t where lower(row_to_json(t)::text) like '%erase.me@example.org%'`));
      expect({ table_name, n: Number(named.n) }).toEqual({ table_name, n: 0 });
    }
    // The order stays (accounts), without the person; the other host's submission is untouched.
    const [order] = await ctx.deps.database.query<{ amount_total_cents: number; customer_name: string | null; status: string }>(sql`select amount_total_cents, customer_name, status from paid_orders where id = ${orderId}`);
    expect(order).toEqual({ amount_total_cents: 8000, customer_name: null, status: "activated" });
    const [{ n: kept }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_submissions where host_email = 'keep@example.org'`);
    expect(Number(kept)).toBe(1);
    const activity = (await (await ctx.request("/api/admin/activity?action=privacy.erase", { headers: ADMIN })).json()) as any;
    expect(activity.entries).toHaveLength(1);
    expect(activity.entries[0]).toMatchObject({ action: "privacy.erase", targetType: "person", targetId: null, outcome: "ok", detail: { submissions: 1, orders: 1, messages: 4 } });
    expect(JSON.stringify(ctx.logs).toLowerCase()).not.toContain("erase.me@example.org");
  });
});

describe("the purge of old submissions", () => {
  test(`runs daily from the schedule and deletes submissions and sent messages older than ${SUBMISSION_RETENTION_MONTHS} months; the privacy page states that period`, async () => {
    expect(scheduledTask("purge-submissions")?.pattern).toBe("40 4 * * *");
    const now = ctx.clock.now();
    const old = new Date(now.getTime());
    old.setUTCMonth(old.getUTCMonth() - SUBMISSION_RETENTION_MONTHS);
    const justOld = new Date(old.getTime() - 60_000).toISOString();
    const justKept = new Date(old.getTime() + 60_000).toISOString();
    await ctx.deps.database.query(sql`insert into event_submissions (payload, host_email, created_at) values ('{}'::jsonb, 'old@example.org', ${justOld}::timestamptz), ('{}'::jsonb, 'recent@example.org', ${justKept}::timestamptz)`);
    await ctx.deps.database.query(
      sql`insert into outbox_messages (dedupe_key, kind, language, recipient, status, created_at) values ('t:old', 'submission_received', 'fr', 'old@example.org', 'sent', ${justOld}::timestamptz), ('t:old-queued', 'submission_received', 'fr', 'old2@example.org', 'queued', ${justOld}::timestamptz)`,
    );
    const res = await ctx.request("/api/cron/purge-submissions", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, deletedSubmissions: 1, deletedMessages: 1 });
    const left = await ctx.deps.database.query<{ host_email: string }>(sql`select host_email from event_submissions where host_email in ('old@example.org', 'recent@example.org')`);
    expect(left.map((r) => r.host_email)).toEqual(["recent@example.org"]);
    const [{ n }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from outbox_messages where dedupe_key like 't:%'`);
    expect(Number(n)).toBe(1);

    for (const [lang, words] of [
      ["en", `deleted ${SUBMISSION_RETENTION_MONTHS} months after they were sent`],
      ["fr", `supprimées ${SUBMISSION_RETENTION_MONTHS} mois après leur envoi`],
    ] as const) {
      const page = await (await ctx.request(lang === "en" ? "/privacy" : `/${lang}/privacy`)).text();
      expect(page).toContain(words);
    }
  });
});
