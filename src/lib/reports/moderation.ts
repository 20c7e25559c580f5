// Reports from visitors in the console (see docs/console.md, "Reports from visitors"): open
// reports grouped by event, "Mark cancelled" (sets the event's status through the publishing
// action, which publishes that change alone, then resolves the event's open reports) and
// "Dismiss". Spam-flagged reports stay out of the list but are counted.

import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/client.ts";
import { eventReports } from "../db/schema/index.ts";
import type { PublishDeps } from "../events/publish.ts";
import { setEventStatus } from "../admin/publishing.ts";
import { normaliseStatusNote, STATUS_NOTE_MAX } from "../sheet/status.ts";
import { REPORT_KINDS, type ReportKind } from "./report.ts";
import { recordActivity } from "../admin/activity.ts";

/** How many of an event's newest texts the console shows. */
export const REPORT_TEXTS_SHOWN = 3;
/** How many events the list shows (the most recently reported first). */
export const REPORT_GROUPS_LISTED = 100;

/** The open reports of one event. */
export interface ReportGroup {
  eventKey: string;
  title: string;
  total: number;
  counts: Record<ReportKind, number>;
  /** The newest non-empty texts, newest first, with their kind. */
  texts: { kind: ReportKind; text: string; createdAt: string }[];
  firstAt: string;
  lastAt: string;
  /** The public reason "Mark cancelled" would set ("" when none fits). */
  cancelNote: string;
}

export interface ReportList {
  groups: ReportGroup[];
  /** Open reports shown (spam-flagged ones excluded), and the events they are about. */
  openCount: number;
  eventCount: number;
  /** Open spam-flagged reports, hidden from the list. */
  spamCount: number;
}

export const REPORT_MODERATION_MESSAGES = {
  noOpenReports: "This event has no open reports (another admin may have handled them)",
} as const;

const iso = (value: unknown): string => new Date(value as string).toISOString();

/**
 * The reason "Mark cancelled" sets: the most common text of the event's "cancelled" reports
 * (compared without case and extra spaces; a tie goes to the newest), when it is at most the
 * status note's length; otherwise none.
 */
export function cancelNoteOf(texts: readonly string[]): string {
  const counts = new Map<string, { text: string; count: number; order: number }>();
  texts.forEach((raw, order) => {
    const text = raw.replace(/\s+/g, " ").trim();
    if (!text) return;
    const key = text.toLowerCase();
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { text, count: 1, order });
  });
  let best: { text: string; count: number; order: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count || (entry.count === best.count && entry.order < best.order)) best = entry;
  return best && best.text.length <= STATUS_NOTE_MAX ? normaliseStatusNote(best.text) : "";
}

type GroupRow = {
  event_key: string;
  title: string | null;
  total: string | number;
  first_at: string | Date;
  last_at: string | Date;
  texts: unknown;
  cancel_texts: unknown;
} & Record<`n_${ReportKind}`, string | number>;

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : typeof value === "string" ? (JSON.parse(value) as T[]) : []);

/** Open reports grouped by event, the most recently reported first; `includeSpam` lists spam-flagged ones too. */
export async function listOpenReports(db: Db, options: { includeSpam?: boolean } = {}): Promise<ReportList> {
  const spamFilter = options.includeSpam ? sql`true` : sql`not spam`;
  const perKind = sql.join(
    REPORT_KINDS.map((kind) => sql`count(*) filter (where kind = ${kind}) as ${sql.identifier(`n_${kind}`)}`),
    sql`, `,
  );
  const groups = rowsOf<GroupRow>(
    await db.execute(sql`
      select event_key,
        (array_agg(event_title order by created_at desc))[1] as title,
        count(*) as total, ${perKind},
        min(created_at) as first_at, max(created_at) as last_at,
        coalesce(json_agg(json_build_object('kind', kind, 'text', text, 'createdAt', created_at) order by created_at desc) filter (where text <> ''), '[]') as texts,
        coalesce(json_agg(text order by created_at desc) filter (where kind = 'cancelled' and text <> ''), '[]') as cancel_texts
      from event_reports where status = 'open' and ${spamFilter}
      group by event_key order by max(created_at) desc, event_key limit ${REPORT_GROUPS_LISTED}`),
  );
  const [totals] = rowsOf<{ open: string | number; events: string | number; spam: string | number }>(
    await db.execute(sql`select count(*) filter (where ${spamFilter}) as open, count(distinct event_key) filter (where ${spamFilter}) as events, count(*) filter (where spam) as spam
      from event_reports where status = 'open'`),
  );
  return {
    groups: groups.map((g) => ({
      eventKey: g.event_key,
      title: g.title ?? "",
      total: Number(g.total),
      counts: Object.fromEntries(REPORT_KINDS.map((kind) => [kind, Number(g[`n_${kind}`])])) as Record<ReportKind, number>,
      texts: asArray<{ kind: ReportKind; text: string; createdAt: string }>(g.texts)
        .slice(0, REPORT_TEXTS_SHOWN)
        .map((t) => ({ kind: t.kind, text: t.text, createdAt: iso(t.createdAt) })),
      firstAt: iso(g.first_at),
      lastAt: iso(g.last_at),
      cancelNote: cancelNoteOf(asArray<string>(g.cancel_texts)),
    })),
    openCount: Number(totals?.open ?? 0),
    eventCount: Number(totals?.events ?? 0),
    spamCount: Number(totals?.spam ?? 0),
  };
}

export type ReportActionResult =
  | { ok: true; eventKey: string; title: string; count: number; note?: string }
  | { ok: false; reason: "invalid" | "not_found" | "conflict"; error: string };

/** Closes an event's open reports (spam-flagged ones included) as `status`; returns how many. */
async function closeReports(db: Db, eventKey: string, status: "resolved" | "dismissed", actor: string, now: Date): Promise<number> {
  const rows = await db
    .update(eventReports)
    .set({ status, resolvedBy: actor, resolvedAt: now })
    .where(and(eq(eventReports.eventKey, eventKey), eq(eventReports.status, "open")))
    .returning({ id: eventReports.id });
  return rows.length;
}

async function openGroup(db: Db, eventKey: string): Promise<{ title: string; cancelTexts: string[] } | undefined> {
  const [row] = rowsOf<{ n: string | number; title: string | null; cancel_texts: unknown }>(
    await db.execute(sql`select count(*) as n, (array_agg(event_title order by created_at desc))[1] as title,
        coalesce(json_agg(text order by created_at desc) filter (where kind = 'cancelled' and text <> '' and not spam), '[]') as cancel_texts
      from event_reports where status = 'open' and event_key = ${eventKey}`),
  );
  if (!row || Number(row.n) === 0) return undefined;
  return { title: row.title ?? "", cancelTexts: asArray<string>(row.cancel_texts) };
}

/**
 * "Mark cancelled and publish": sets the event's status to cancelled with the reports' most common
 * short reason (publishing that change alone), then resolves its open reports. An event no longer in
 * the sheet is refused by the status action before anything is written: its reports stay open.
 */
export async function markReportedCancelled(deps: PublishDeps, rawKey: string, actor: string): Promise<ReportActionResult> {
  const eventKey = rawKey.trim().toLowerCase();
  const group = await openGroup(deps.db, eventKey);
  if (!group) return { ok: false, reason: "conflict", error: REPORT_MODERATION_MESSAGES.noOpenReports };
  const note = cancelNoteOf(group.cancelTexts);
  const set = await setEventStatus(deps, { event: eventKey, status: "cancelled", note }, actor);
  if (!set.ok) return { ok: false, reason: set.reason, error: set.error };
  const count = await closeReports(deps.db, eventKey, "resolved", actor, deps.now());
  // HOOK POINT `notifySaversOfCancellation` (push to the visitors who saved the event): another
  // change adds it here, once the cancellation is published and the reports resolved.
  deps.log.info("reports", "Reported event marked cancelled", { eventKey, reports: count, by: actor });
  await recordActivity(deps, { actor, action: "report.cancel", targetType: "event", targetId: eventKey, outcome: "ok", detail: { reports: count } });
  return { ok: true, eventKey, title: set.title || group.title, count, note };
}

/** "Dismiss": closes the event's open reports without changing the event. */
export async function dismissReports(deps: Pick<PublishDeps, "db" | "log" | "now">, rawKey: string, actor: string): Promise<ReportActionResult> {
  const eventKey = rawKey.trim().toLowerCase();
  const group = await openGroup(deps.db, eventKey);
  if (!group) return { ok: false, reason: "conflict", error: REPORT_MODERATION_MESSAGES.noOpenReports };
  const count = await closeReports(deps.db, eventKey, "dismissed", actor, deps.now());
  if (count === 0) return { ok: false, reason: "conflict", error: REPORT_MODERATION_MESSAGES.noOpenReports };
  deps.log.info("reports", "Reports dismissed", { eventKey, reports: count, by: actor });
  await recordActivity(deps, { actor, action: "report.dismiss", targetType: "event", targetId: eventKey, outcome: "ok", detail: { reports: count } });
  return { ok: true, eventKey, title: group.title, count };
}
