// Secrets at rest are digests (docs/email.md, "Private links"; docs/placements.md, "Partner
// statistics"): after an accepted submission (its email sent through a real SMTP server on
// loopback), a re-issued edit link, a paid order fulfilled (its confirmation sent, its start and
// end messages still queued) and a test activation, every column of every table, the admin outbox
// API and pages, the orders list and a backup are read: no edit token and no partner token appears
// in clear text, while the emails carry working links. Then an upgraded database: readable
// partner tokens become digests (the old links still match) and messages that left the queue lose
// the links they carried.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createClock, TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { startSmtpServer, linksOf, type TestSmtpServer } from "../helpers/smtp.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { openDatabase, type Database } from "../../src/lib/db/client.ts";
import { MIGRATIONS_FOLDER } from "../../src/lib/db/migrate.ts";
import { claimNextMessage, markSent } from "../../src/lib/mail/outbox.ts";
import { partnerTokenMatches } from "../../src/lib/partners/tokens.ts";

const ADMIN = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };
const SITE = "http://finder.test";

/** Every column of every table of the schema, each cast to text: one string per row. */
async function everyCell(database: Database): Promise<string[]> {
  const columns = await database.query<{ table_name: string; column_name: string }>(
    sql`select table_name, column_name from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  const cells: string[] = [];
  for (const [table, names] of byTable) {
    const list = names.map((n, i) => `"${n.replaceAll('"', '""')}"::text as c${i}`).join(", ");
    const rows = await database.query<Record<string, string | null>>(sql.raw(`select ${list} from "${table.replaceAll('"', '""')}"`));
    for (const row of rows) cells.push(`${table}: ${Object.values(row).join(" | ")}`);
  }
  return cells;
}

function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get("token");
  expect(token).toBeTruthy();
  return token!;
}

describe("secrets at rest: no edit token and no partner token in clear text", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  const clock = createClock("2026-06-19T10:00:00Z");
  const ctx = useTestApp(() => ({ clock, env: { SMTP_URL: smtp.url, DATA_MODE: "remote", PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } }));
  afterAll(() => smtp?.close());
  const json = async (path: string, init: RequestInit = {}) => {
    const res = await ctx.request(path, { ...init, headers: { ...ADMIN, ...(init.headers as Record<string, string>) } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const text = async (path: string) => {
    const res = await ctx.request(path, { headers: ADMIN });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** Follows a link of a message through the app. */
  const open = (link: string) => ctx.request(link.slice(SITE.length));

  test("after an accepted submission, a new edit link, a fulfilled order and a test activation", async () => {
    const submitted = await ctx.request("/api/event-submissions?lang=fr", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.77" },
      body: JSON.stringify({ eventName: "Canal Session", date: "2026-06-21", startTime: "18:00", endTime: "22:00", location: "Quai de Valmy", arrondissement: "10", hostEmail: "host@example.com", proofLink: "https://example.com/events/1", formStartedAt: "2026-06-18T09:58:00.000Z" }),
    });
    expect(submitted.status).toBe(200);
    const pending = await json("/api/admin/submissions?status=pending");
    const submissionId = pending.body.submissions[0].id as string;
    const accepted = await json(`/api/admin/submissions/${submissionId}/accept`, { method: "POST", body: "{}" });
    expect(accepted.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 2 });

    // The accepted email carries a working edit link.
    const acceptedMail = smtp.received.at(-1)!;
    const editLink = linksOf(acceptedMail.parsed.text!)[1]!;
    expect(editLink).toMatch(new RegExp(`^${SITE}/edit-event/[0-9a-f-]{36}\\?token=[A-Za-z0-9_-]{43}$`));
    expect((await open(editLink)).status).toBe(200);
    const secrets = [tokenOf(editLink)];

    // A new link, shown once to the moderator and emailed: the old one stops working.
    const issued = await json(`/api/admin/submissions/${submissionId}/edit-link`, { method: "POST", body: "{}" });
    expect(issued.status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(linksOf(smtp.received.at(-1)!.parsed.text!)).toEqual([issued.body.editUrl]);
    expect((await open(issued.body.editUrl)).status).toBe(200);
    expect((await open(editLink)).status).toBe(410);
    secrets.push(tokenOf(issued.body.editUrl));

    // A paid order fulfilled: the statistics link is in the answer and in the confirmation email.
    const envelope = checkoutCompleted({ session: { customer_details: { email: "partner@example.com", name: "Partner" }, locale: "fr", metadata: { package_key: "spotlight-standard", event_name: "Canal Session" }, custom_fields: [] } });
    const raw = JSON.stringify(envelope);
    const hook = await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(raw, Math.floor(clock.now().getTime() / 1000)) }, body: raw });
    expect(hook.status).toBe(200);
    const orderId = (await json("/api/admin/orders?status=pending")).body.orders[0].id as string;
    const fulfilled = await json(`/api/admin/orders/${orderId}/fulfil`, { method: "POST", body: JSON.stringify({ eventKey: accepted.body.eventKey, tier: "spotlight", startAt: "2026-06-19T14:00", durationHours: 4 }) });
    expect(fulfilled.status).toBe(200);
    const statsLink = fulfilled.body.statsUrl as string;
    expect((await open(statsLink)).status).toBe(200);
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(linksOf(smtp.received.at(-1)!.parsed.text!)).toEqual([statsLink]);
    secrets.push(tokenOf(statsLink));

    // A test activation (no email): its link is shown once, in the answer.
    const made = await json("/api/admin/orders/test", { method: "POST", body: JSON.stringify({ eventKey: accepted.body.eventKey, tier: "promoted", startAt: "2026-06-19T13:00", durationHours: 24 }) });
    expect({ status: made.status, body: made.status === 201 ? "" : made.body }).toEqual({ status: 201, body: "" });
    expect((await open(made.body.statsUrl)).status).toBe(200);
    secrets.push(tokenOf(made.body.statsUrl));
    expect((await json("/api/admin/backups", { method: "POST" })).status).toBe(201);

    const expectClean = (where: string, haystack: string) => {
      for (const secret of secrets) expect({ where, found: haystack.includes(secret) }).toEqual({ where, found: false });
    };
    // Every column of every table (the start and end messages are still queued).
    expect((await json("/api/admin/outbox?status=queued")).body.counts.queued).toBe(2);
    const cells = await everyCell(ctx.deps.database);
    expect(cells.some((c) => c.startsWith("outbox_messages:"))).toBe(true);
    expect(cells.some((c) => c.startsWith("event_store_backups:"))).toBe(true);
    for (const cell of cells) expectClean(cell.slice(0, 120), cell);

    // The admin outbox API and pages, message by message: a placeholder where a private link was.
    const listed = await json("/api/admin/outbox");
    expectClean("GET /api/admin/outbox", JSON.stringify(listed.body));
    expectClean("outbox page", await text("/admin/operations/outbox"));
    const withLinks = listed.body.messages.filter((m: { kind: string }) => m.kind !== "submission_received");
    expect(withLinks.map((m: { kind: string }) => m.kind).sort()).toEqual(["edit_link_issued", "order_confirmed", "placement_ended", "placement_started", "submission_accepted"]);
    for (const message of listed.body.messages) {
      const full = await json(`/api/admin/outbox/${message.id}`);
      expectClean(`GET /api/admin/outbox/${message.kind}`, JSON.stringify(full.body));
      if (message.kind !== "submission_received") expect(full.body.message.text).toContain("[lien privé");
      expectClean(`outbox page of ${message.kind}`, await text(`/admin/operations/outbox/${message.id}`));
    }
    // The orders as the API and the console list them, and the backups.
    expectClean("GET /api/admin/orders", JSON.stringify((await json("/api/admin/orders")).body));
    expectClean("placements page", await text("/admin/placements"));
    expectClean("GET /api/admin/backups", JSON.stringify((await json("/api/admin/backups")).body));

    // At their moments the queued messages are sent with the working link, written out then.
    clock.set("2026-06-19T12:00:02Z");
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(linksOf(smtp.received.at(-1)!.parsed.text!)).toEqual([statsLink]);
    clock.set("2026-06-19T16:00:02Z");
    expect(await ctx.deps.outbox.drain()).toMatchObject({ sent: 1 });
    expect(linksOf(smtp.received.at(-1)!.parsed.text!)).toEqual([statsLink]);
    for (const cell of await everyCell(ctx.deps.database)) expectClean(cell.slice(0, 120), cell);
  });
});

/** A database of its own (PGlite, or a fresh schema on the server), migrations not applied. */
async function bareDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({});
    return { database, drop: () => database.close(5) };
  }
  const schemaName = `finder_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema "${schemaName}"`);
  const database = await openDatabase({ url: TEST_DATABASE_URL, schemaName, maxConnections: 2 });
  return {
    database,
    drop: async () => {
      await database.close(5);
      await admin.unsafe(`drop schema if exists "${schemaName}" cascade`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** Applies the migration files whose number is in [from, to), statement by statement. */
async function applyMigrations(database: Database, from: number, to: number): Promise<void> {
  const files = readdirSync(MIGRATIONS_FOLDER).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort();
  for (const file of files.filter((f) => Number(f.slice(0, 4)) >= from && Number(f.slice(0, 4)) < to)) {
    for (const statement of readFileSync(join(MIGRATIONS_FOLDER, file), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) await database.query(sql.raw(statement));
    }
  }
}

test("an upgraded database: readable partner tokens become digests and messages that left the queue lose their links", async () => {
  const { database, drop } = await bareDatabase();
  try {
    await applyMigrations(database, 0, 17);
    const legacyToken = "0123456789abcdef0123456789abcdef";
    const legacyEdit = "http://finder.test/edit-event/3f0c6a1e-2b7d-4c59-9a43-1d2e5f6a7b8c?token=legacyEditTokenLegacyEditTokenLegacyEditTok";
    await database.query(sql`insert into paid_orders (source, source_event_id, status, partner_stats_token) values ('manual-test', 'manual-test-legacy', 'activated', ${legacyToken})`);
    await database.query(sql`insert into outbox_messages (dedupe_key, kind, language, recipient, params, status, next_attempt_at) values
      ('legacy:sent', 'submission_accepted', 'fr', 'a@example.com', ${JSON.stringify({ eventName: "A", publicUrl: "http://finder.test/event/x", editUrl: legacyEdit })}::jsonb, 'sent', now()),
      ('legacy:queued', 'order_confirmed', 'fr', 'b@example.com', ${JSON.stringify({ eventName: "B", statsUrl: `http://finder.test/partner-stats/x?token=${legacyToken}` })}::jsonb, 'queued', now() - interval '1 minute')`);
    await applyMigrations(database, 17, 10_000);

    const [order] = await database.query<{ partner_stats_token_hash: string }>(sql`select partner_stats_token_hash from paid_orders`);
    expect(order!.partner_stats_token_hash).toMatch(/^[0-9a-f]{64}$/);
    // The old link still opens: its token matches the digest.
    expect(partnerTokenMatches(legacyToken, order!.partner_stats_token_hash)).toBe(true);
    expect(partnerTokenMatches(legacyToken.replace("0", "1"), order!.partner_stats_token_hash)).toBe(false);
    const [sent] = await database.query<{ params: Record<string, unknown> }>(sql`select params from outbox_messages where dedupe_key = 'legacy:sent'`);
    expect(sent!.params).toEqual({ eventName: "A", publicUrl: "http://finder.test/event/x", linkRemoved: true });
    // The queued one keeps its link until it is sent, then loses it.
    const claimed = await claimNextMessage(database.db, new Date());
    expect(claimed?.params.statsUrl).toContain(legacyToken);
    await markSent(database.db, claimed!, new Date());
    const cells = (await everyCell(database)).join("\n");
    expect(cells).not.toContain(legacyToken);
    expect(cells).not.toContain("legacyEditToken");
  } finally {
    await drop();
  }
});
