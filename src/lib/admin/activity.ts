// The console's activity timeline (see docs/console.md, "Activity"): every admin action is recorded
// through `recordActivity`, called by the lib action itself, with the actor, the target and how it
// ended. Rows never hold an email or a secret: targets are ids and keys.

import { and, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { adminActivity } from "../db/schema/index.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { refused, type Refused } from "../outcome.ts";

/** The actions the timeline knows, by area. */
export const ACTIVITY_ACTIONS = [
  "sheet.publish",
  "sheet.restore",
  "sheet.discard",
  "event.status",
  "report.cancel",
  "report.dismiss",
  "store.backup",
  "store.restore",
  "submission.accept",
  "submission.decline",
  "change.propose",
  "change.accept",
  "change.refuse",
  "editlink.issue",
  "editlink.revoke",
  "order.fulfil",
  "order.status",
  "order.delete",
  "placement.schedule",
  "placement.cancel",
  "session.revoke",
  "mail.resend",
  "privacy.erase",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export function isActivityAction(value: unknown): value is ActivityAction {
  return typeof value === "string" && (ACTIVITY_ACTIONS as readonly string[]).includes(value);
}

export type ActivityOutcome = "ok" | "failed";

/** One action to record. */
export interface ActivityEntry {
  actor: string;
  action: ActivityAction;
  targetType: string;
  targetId?: string | null;
  outcome: ActivityOutcome;
  detail?: Record<string, unknown>;
}

export type ActivityRecord = typeof adminActivity.$inferSelect;

/**
 * Records one admin action, in the caller's transaction when `db` is one. Outside a transaction a
 * failed write is logged and swallowed: the action itself already happened and stays done.
 */
export async function recordActivity(deps: { db: Db; now: () => Date; log?: Logger }, entry: ActivityEntry): Promise<void> {
  const row = { at: deps.now(), actor: entry.actor || "unknown", action: entry.action, targetType: entry.targetType, targetId: entry.targetId ?? null, outcome: entry.outcome, detail: entry.detail ?? null };
  if (!deps.log) {
    await deps.db.insert(adminActivity).values(row);
    return;
  }
  try {
    await deps.db.insert(adminActivity).values(row);
  } catch (error) {
    deps.log.error("activity", "Could not record an admin action", { action: entry.action, error: dbErrorSummary(error) });
  }
}

/** Filters of the timeline: action (or its area prefix, "submission"), actor, target, outcome, time range. */
export interface ActivityFilter {
  action?: string;
  actor?: string;
  targetType?: string;
  targetId?: string;
  outcome?: ActivityOutcome;
  from?: Date;
  to?: Date;
  limit?: number;
}

export const ACTIVITY_PAGE = 200;

/** The newest actions first, filtered. */
export async function listActivity(db: Db, filter: ActivityFilter = {}): Promise<ActivityRecord[]> {
  const where: (SQL | undefined)[] = [];
  if (filter.action) where.push(filter.action.includes(".") ? eq(adminActivity.action, filter.action) : sql`starts_with(${adminActivity.action}, ${`${filter.action}.`})`);
  if (filter.actor) where.push(eq(adminActivity.actor, filter.actor));
  if (filter.targetType) where.push(eq(adminActivity.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(adminActivity.targetId, filter.targetId));
  if (filter.outcome) where.push(eq(adminActivity.outcome, filter.outcome));
  if (filter.from) where.push(gte(adminActivity.at, filter.from));
  if (filter.to) where.push(lte(adminActivity.at, filter.to));
  return db
    .select()
    .from(adminActivity)
    .where(and(...where))
    .orderBy(desc(adminActivity.at), desc(adminActivity.id))
    .limit(Math.min(Math.max(filter.limit ?? ACTIVITY_PAGE, 1), 1000));
}

/** Deletes actions older than `days` days (the retention task). */
export async function pruneActivity(db: Db, now: Date, days: number): Promise<number> {
  const rows = await db
    .delete(adminActivity)
    .where(lt(adminActivity.at, new Date(now.getTime() - days * 86_400_000)))
    .returning({ id: adminActivity.id });
  return rows.length;
}

export type ParsedActivityFilter = { ok: true; filter: ActivityFilter } | Refused<"invalid">;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the timeline filters from a query: `action` (an action or its area), `actor`, `target`,
 * `outcome` (ok or failed), `from` and `to` (YYYY-MM-DD, UTC days, both included). Blank means any.
 */
export function parseActivityFilter(query: Record<string, unknown>): ParsedActivityFilter {
  const value = (name: string) => (typeof query[name] === "string" ? (query[name] as string).trim() : "");
  const filter: ActivityFilter = {};
  const action = value("action");
  if (action) {
    const areas = new Set(ACTIVITY_ACTIONS.map((a) => a.split(".")[0]));
    if (!isActivityAction(action) && !areas.has(action)) return refused("invalid", "Unknown action");
    filter.action = action;
  }
  const actor = value("actor");
  if (actor) filter.actor = actor.slice(0, 200);
  const target = value("target");
  if (target) filter.targetId = target.slice(0, 200);
  const outcome = value("outcome");
  if (outcome) {
    if (outcome !== "ok" && outcome !== "failed") return refused("invalid", "Outcome must be ok or failed");
    filter.outcome = outcome;
  }
  for (const [name, end] of [["from", false], ["to", true]] as const) {
    const raw = value(name);
    if (!raw) continue;
    const at = DAY.test(raw) ? new Date(`${raw}T00:00:00Z`) : new Date(Number.NaN);
    if (Number.isNaN(at.getTime())) return refused("invalid", `${name === "from" ? "From" : "To"} must be a date (YYYY-MM-DD)`);
    filter[name] = end ? new Date(at.getTime() + 86_400_000 - 1) : at;
  }
  return { ok: true, filter };
}

/** An entry as the JSON API gives it. */
export function activityJson(entry: ActivityRecord) {
  return { id: entry.id, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, targetType: entry.targetType, targetId: entry.targetId, outcome: entry.outcome, detail: entry.detail };
}
