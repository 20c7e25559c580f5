// Every Postgres advisory lock of the service: the keys in one table, and the only two statements
// that take one. Two features taking the same key would serialise each other (or one would skip its
// run) for no reason, and that is only visible here. Every lock is transaction-level: Postgres
// releases it at commit or rollback (a session lock would leak through the connection pool).

import { sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";

/** The lock every event-store write holds for its transaction (store.ts, patch.ts). */
export const STORE_LOCK_KEY = 734_200_1;

/** One lock per placement scheduler (placements/scheduler.ts). */
export const SCHEDULER_LOCK_KEYS = { spotlight: 734_400_1, promoted: 734_400_2 } as const;

/** One lock per scheduled task (tasks/schedule.ts): a run that cannot take it is skipped on that instance. */
export const TASK_LOCK_KEYS = {
  "cleanup-admin-sessions": 734_300_1,
  "cleanup-rate-limits": 734_300_2,
  "backup-event-store": 734_300_3,
  "prune-tracking-markers": 734_300_4,
  "tracking-retention": 734_300_5,
  "warm-coordinates": 734_300_8,
  "purge-submissions": 734_300_9,
  "send-outbox": 734_301_0,
} as const;

/**
 * The space of the per-event locks of host proposals (submissions/host-changes.ts): the lock is
 * the pair (space, hash of the Event Key), one per event. Pairs live apart from the single keys
 * above in Postgres, so only the spaces must differ from each other.
 */
export const PROPOSAL_LOCK_SPACE = 2028;

/** Every single key above, for the test that they are distinct. */
export const ALL_LOCK_KEYS: readonly number[] = [STORE_LOCK_KEY, ...Object.values(SCHEDULER_LOCK_KEYS), ...Object.values(TASK_LOCK_KEYS)];

/** A lock of the table: one key, or a space and a name whose hash names the lock inside it. */
export type AdvisoryLock = number | { space: number; name: string };

/** Anything that runs a statement inside an open Drizzle transaction. */
interface Executor {
  execute(query: SQL): PromiseLike<unknown>;
}

/** Waits for `lock` inside the open transaction `tx`; it is held until the transaction ends. */
export async function holdTransactionLock(tx: Executor, lock: AdvisoryLock): Promise<void> {
  if (typeof lock === "number") await tx.execute(sql`select pg_advisory_xact_lock(${lock})`);
  else await tx.execute(sql`select pg_advisory_xact_lock(${lock.space}, hashtext(${lock.name}))`);
}

/**
 * Takes the key inside the open transaction `tx` of a Postgres server's client, without waiting:
 * false when another transaction holds it (the scheduled tasks skip their run then).
 */
export async function tryTransactionLock(tx: postgres.TransactionSql, key: number): Promise<boolean> {
  const [row] = await tx`select pg_try_advisory_xact_lock(${key}) as locked`;
  return Boolean(row?.locked);
}
