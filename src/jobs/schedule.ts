// The in-process schedule: every scheduled job in one list. With several instances, each run
// takes a Postgres advisory lock so a job runs once per tick across the fleet.

import { Elysia } from "elysia";
import { cron } from "@elysiajs/cron";
import type { Deps } from "../deps.ts";
import { cleanupAdminSessions } from "./cleanup-admin-sessions.ts";
import { cleanupRateLimits } from "./cleanup-rate-limits.ts";
import { backupEventStore } from "./backup-event-store.ts";

/** One scheduled job: a name, a UTC cron pattern, a lock key and the plain function it runs. */
export interface ScheduledJob {
  name: string;
  pattern: string;
  lockKey: number;
  run: (deps: Deps) => Promise<unknown>;
}

/** The schedule (UTC): 04:00, 04:10 and 04:20 daily (see docs/operations.md, "Jobs"). */
export const SCHEDULE: readonly ScheduledJob[] = [
  { name: "cleanup-admin-sessions", pattern: "0 4 * * *", lockKey: 734_300_1, run: cleanupAdminSessions },
  { name: "cleanup-rate-limits", pattern: "10 4 * * *", lockKey: 734_300_2, run: cleanupRateLimits },
  { name: "backup-event-store", pattern: "20 4 * * *", lockKey: 734_300_3, run: backupEventStore },
];

/**
 * Runs a job unless another instance holds its lock. On a Postgres server the lock is a
 * transaction-level advisory lock (session locks leak through the pool); the embedded database
 * serves one process, which needs no lock.
 */
export async function runExclusively(deps: Deps, job: ScheduledJob): Promise<{ ran: boolean; result?: unknown }> {
  if (!deps.database.pg) return { ran: true, result: await job.run(deps) };
  const pg = deps.database.pg;
  let outcome: { ran: boolean; result?: unknown } = { ran: false };
  await pg.begin(async (tx) => {
    const [row] = await tx`select pg_try_advisory_xact_lock(${job.lockKey}) as locked`;
    if (!row?.locked) return;
    outcome = { ran: true, result: await job.run(deps) };
  });
  return outcome;
}

/** The schedule as an Elysia plugin (@elysiajs/cron); its timers stop with `stopSchedule`. */
export function schedulePlugin(deps: Deps) {
  let app = new Elysia({ name: "schedule" });
  for (const job of SCHEDULE) {
    app = app.use(
      cron({
        name: job.name,
        pattern: job.pattern,
        timezone: "UTC",
        protect: true,
        run: async () => {
          try {
            const { ran } = await runExclusively(deps, job);
            if (!ran) deps.log.info("jobs", "Skipped: another instance holds the lock", { job: job.name });
          } catch (error) {
            deps.log.error("jobs", "Scheduled job failed", { job: job.name }, error);
          }
        },
      }),
    ) as unknown as Elysia<"">;
  }
  return app;
}

/** Stops every timer of a started schedule plugin. */
export function stopSchedule(app: { store: unknown }): void {
  const timers = (app.store as { cron?: Record<string, { stop(): void }> }).cron ?? {};
  for (const timer of Object.values(timers)) timer.stop();
}
