// Admin status reports (docs/auth-and-admin.md, "Existing admin endpoints"; the console shell
// badges): health, event store status, and the pending-work counts the console shows.

import { count, eq, max } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { EventReader } from "../events/pipeline.ts";
import type { Logger } from "../logger.ts";
import { pingDatabase, type DbEngine } from "../db/client.ts";
import { eventStoreBackups, eventSubmissions, kvStore, paidOrders } from "../db/schema/index.ts";
import { currentStoreChecksum, findStoreMeta } from "../store/store.ts";

/** What the status reports read. */
export interface StatusDeps {
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

/** Work waiting for the admin team: the Action Center badge and the tab counts. */
export interface PendingWork {
  submissions: number;
  orders: number;
}

/** Pending submissions and pending paid orders; undefined when the database cannot say. */
export async function countPendingWork(db: Db): Promise<PendingWork | undefined> {
  try {
    const [[s], [o]] = await Promise.all([
      db.select({ n: count() }).from(eventSubmissions).where(eq(eventSubmissions.status, "pending")),
      db.select({ n: count() }).from(paidOrders).where(eq(paidOrders.status, "pending")),
    ]);
    return { submissions: Number(s?.n ?? 0), orders: Number(o?.n ?? 0) };
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
}

/** Reads the overview tiles: a dry read of the source chain, store rows and pending work. */
export async function readOverview(deps: StatusDeps): Promise<OverviewFacts> {
  const [read, meta, pending] = await Promise.all([
    deps.events.dryRun().catch(() => undefined),
    findStoreMeta(deps.db).catch(() => undefined),
    countPendingWork(deps.db),
  ]);
  return {
    source: read?.source,
    liveEvents: read?.eventCount,
    fallbackReason: read?.fallbackReason,
    storeRows: meta ? meta.rowCount : deps.config.dataMode === "remote" ? 0 : undefined,
    pendingSubmissions: pending?.submissions,
    pendingOrders: pending?.orders,
  };
}
