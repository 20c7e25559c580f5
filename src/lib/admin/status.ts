// Admin status reports (docs/auth-and-admin.md, "Existing admin endpoints"; the console shell
// badges): health, event store status, and the pending-work counts the console shows.

import { and, count, eq, max, not } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { EventReader } from "../events/pipeline.ts";
import type { Logger } from "../logger.ts";
import { pingDatabase, type DbEngine } from "../db/client.ts";
import { eventReports, eventStoreBackups, eventSubmissions, hostChangeRequests, kvStore, outboxMessages, paidOrders } from "../db/schema/index.ts";
import { readUnpublishedChanges, type DraftDeps } from "./drafts.ts";
import { currentStoreChecksum, findStoreMeta } from "../store/store.ts";

/** What the status reports read. */
export interface StatusDeps extends Pick<DraftDeps, "keptPublishedSheet" | "keptDraftComparison"> {
  config: Config;
  database: Database;
  db: Db;
  events: EventReader;
  log: Logger;
  now: () => Date;
}

/** GET /api/admin/health. */
export interface AdminHealth {
  status: "ok" | "degraded";
  database: DbEngine | "unavailable";
  dataMode: string;
  eventCount: number;
}

/**
 * Health: the engine in use (or unavailable) and a dry read of the source chain (nothing written).
 * Degraded when the read needed a fallback or failed, or the database is down in remote mode.
 */
export async function readAdminHealth(deps: StatusDeps): Promise<AdminHealth> {
  const databaseUp = await pingDatabase(deps.database);
  let eventCount = 0;
  let fellBack = false;
  try {
    const read = await deps.events.dryRun();
    eventCount = read.eventCount;
    fellBack = read.fallbackReason !== undefined;
  } catch (error) {
    deps.log.warn("admin-status", "Health read of the event sources failed", { dataMode: deps.config.dataMode }, error);
    fellBack = true;
  }
  const degraded = fellBack || (!databaseUp && deps.config.dataMode === "remote");
  return { status: degraded ? "degraded" : "ok", database: databaseUp ? deps.database.engine : "unavailable", dataMode: deps.config.dataMode, eventCount };
}

/** GET /api/admin/data-store/status: store, config and runtime, plus revision, checksum, backups and KV size. */
export async function readDataStoreStatus(deps: StatusDeps) {
  const [meta, [backups], [kv]] = await Promise.all([
    findStoreMeta(deps.db),
    deps.db.select({ n: count(), newest: max(eventStoreBackups.createdAt) }).from(eventStoreBackups),
    deps.db.select({ n: count() }).from(kvStore),
  ]);
  const checksum = meta ? await currentStoreChecksum(deps.db, meta) : "";
  const runtime = deps.events.status();
  const { config } = deps;
  return {
    success: true as const,
    timestamp: deps.now().toISOString(),
    store: {
      hasStoreData: (meta?.rowCount ?? 0) > 0,
      rowCount: meta?.rowCount ?? 0,
      columnCount: meta?.columnCount ?? 0,
      revision: meta?.revision ?? 0,
      checksum: checksum || null,
      updatedAt: meta?.updatedAt.toISOString() ?? null,
      updatedBy: meta?.updatedBy ?? null,
      origin: meta?.origin ?? null,
      provider: deps.database.engine,
    },
    backups: { count: Number(backups?.n ?? 0), newestAt: backups?.newest ? new Date(backups.newest).toISOString() : null },
    kv: { entryCount: Number(kv?.n ?? 0) },
    config: {
      dataMode: config.dataMode,
      remoteConfigured: Boolean(config.remoteCsvUrl || config.sheetId),
      hasServiceAccount: Boolean(config.sheetServiceAccountKey),
    },
    runtime: {
      lastFetchTime: runtime.lastFetchTime,
      lastErrorMessage: runtime.lastErrorMessage,
      source: runtime.source,
      eventCount: runtime.eventCount,
    },
  };
}

/** Pending submissions and orders: the Content and Placements tab counts. */
export interface PendingWork {
  submissions: number;
  orders: number;
}

/**
 * Everything waiting for the team, by kind: the Action Center badge, the tab counts and the
 * overview's Action Center read this one reading. `drafts` (unpublished changes) is left out unless
 * asked: counting them compares the whole sheet, so a page shows the others at once and its
 * Action Center fragment, loaded after the page, adds them.
 */
export interface ActionCounts extends PendingWork {
  /** Open reports from visitors, spam-flagged ones excluded (the reports card's "open"). */
  reports: number;
  /** Changes proposed by hosts, waiting for a moderator. */
  hostChanges: number;
  /** Outbox messages that failed (waiting for a Resend). */
  failedEmails: number;
  /** The Publishing card's unpublished changes; undefined when not counted or unreadable. */
  drafts?: number;
}

/** The kinds of ActionCounts, in the order the console lists them. */
export const ACTION_KINDS = ["reports", "hostChanges", "failedEmails", "drafts", "submissions", "orders"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** The sum of the counts that are known. */
export function actionTotal(counts: ActionCounts): number {
  return ACTION_KINDS.reduce((sum, kind) => sum + (counts[kind] ?? 0), 0);
}

const countOf = (rows: { n: number | string }[]) => Number(rows[0]?.n ?? 0);

/** Reads the counts (with the unpublished changes when `drafts`); undefined when the database cannot say. */
export async function countActionItems(deps: Pick<DraftDeps, "db" | "keptPublishedSheet" | "keptDraftComparison">, options: { drafts?: boolean } = {}): Promise<ActionCounts | undefined> {
  const { db } = deps;
  try {
    const [submissions, orders, reports, hostChanges, failedEmails, drafts] = await Promise.all([
      db.select({ n: count() }).from(eventSubmissions).where(eq(eventSubmissions.status, "pending")),
      db.select({ n: count() }).from(paidOrders).where(eq(paidOrders.status, "pending")),
      db.select({ n: count() }).from(eventReports).where(and(eq(eventReports.status, "open"), not(eventReports.spam))),
      db.select({ n: count() }).from(hostChangeRequests).where(eq(hostChangeRequests.status, "pending")),
      db.select({ n: count() }).from(outboxMessages).where(eq(outboxMessages.status, "failed")),
      options.drafts ? readUnpublishedChanges(deps).then((c) => c.total).catch(() => undefined) : undefined,
    ]);
    return { submissions: countOf(submissions), orders: countOf(orders), reports: countOf(reports), hostChanges: countOf(hostChanges), failedEmails: countOf(failedEmails), drafts };
  } catch {
    return undefined;
  }
}



/** The console overview tiles (see docs/console.md); undefined values could not be read. */
export interface OverviewFacts {
  source?: "store" | "backup" | "local" | "test";
  liveEvents?: number;
  fallbackReason?: string;
  storeRows?: number;
  pendingSubmissions?: number;
  pendingOrders?: number;
  /** The Action Center's counts, without the unpublished changes (its panel loads them after the page). */
  actions?: ActionCounts;
}

/** Reads the overview tiles: a dry read of the source chain, store rows and the waiting work. */
export async function readOverview(deps: StatusDeps): Promise<OverviewFacts> {
  const [read, meta, pending] = await Promise.all([
    deps.events.dryRun().catch(() => undefined),
    findStoreMeta(deps.db).catch(() => undefined),
    countActionItems(deps),
  ]);
  return {
    source: read?.source,
    liveEvents: read?.eventCount,
    fallbackReason: read?.fallbackReason,
    storeRows: meta ? meta.rowCount : deps.config.dataMode === "remote" ? 0 : undefined,
    pendingSubmissions: pending?.submissions,
    pendingOrders: pending?.orders,
    actions: pending,
  };
}
