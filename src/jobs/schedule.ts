// The in-process schedule: every scheduled job in one list. With several instances, each run
// takes a Postgres advisory lock so a job runs once per tick across the fleet.

import { Elysia } from "elysia";
import { cron } from "@elysiajs/cron";
import type { Deps } from "../deps.ts";
import { cleanupAdminSessions } from "./cleanup-admin-sessions.ts";
import { cleanupRateLimits } from "./cleanup-rate-limits.ts";
import { backupEventStore, backupReport } from "./backup-event-store.ts";
import { trackingRetention } from "./tracking-retention.ts";
import { pruneTrackingMarkers } from "./prune-tracking-markers.ts";
import { warmCoordinatesJob, warmCoordinatesReport } from "./warm-coordinates.ts";
import { sendOutbox } from "./send-outbox.ts";
import { purgeSubmissions } from "./purge-submissions.ts";
import { JOB_LOCK_KEYS } from "../lib/db/locks.ts";

/**
 * One scheduled job: a name (also its `/api/cron/<name>` path), a UTC cron pattern, a lock key
 * and the plain function it runs. `report` turns the result into the cron endpoint's JSON fields
 * (beside `ok: true`); without it the result is spread as it is.
 */
export interface ScheduledJob<T = any> {
  name: string;
  pattern: string;
  lockKey: number;
  run: (deps: Deps) => Promise<T>;
  report?: (result: T) => Record<string, unknown>;
}

function job<T>(definition: ScheduledJob<T>): ScheduledJob<T> {
  return definition;
}

/** The schedule (UTC): 04:00, 04:10, 04:20, 04:30 and 04:40 daily, every ten minutes, hourly at :30 and every 5 seconds (see docs/operations.md, "Jobs"). */
export const SCHEDULE: readonly ScheduledJob[] = [
  job({ name: "cleanup-admin-sessions", pattern: "0 4 * * *", lockKey: JOB_LOCK_KEYS["cleanup-admin-sessions"], run: cleanupAdminSessions }),
  job({ name: "cleanup-rate-limits", pattern: "10 4 * * *", lockKey: JOB_LOCK_KEYS["cleanup-rate-limits"], run: cleanupRateLimits }),
  job({ name: "backup-event-store", pattern: "20 4 * * *", lockKey: JOB_LOCK_KEYS["backup-event-store"], run: backupEventStore, report: backupReport }),
  job({ name: "prune-tracking-markers", pattern: "*/10 * * * *", lockKey: JOB_LOCK_KEYS["prune-tracking-markers"], run: pruneTrackingMarkers }),
  job({ name: "warm-coordinates", pattern: "30 * * * *", lockKey: JOB_LOCK_KEYS["warm-coordinates"], run: warmCoordinatesJob, report: warmCoordinatesReport }),
  job({ name: "tracking-retention", pattern: "30 4 * * *", lockKey: JOB_LOCK_KEYS["tracking-retention"], run: trackingRetention }),
  job({ name: "purge-submissions", pattern: "40 4 * * *", lockKey: JOB_LOCK_KEYS["purge-submissions"], run: purgeSubmissions }),
  // Seconds first: the outbox is polled every 5 s so a message leaves within seconds of its action.
  job({ name: "send-outbox", pattern: "*/5 * * * * *", lockKey: JOB_LOCK_KEYS["send-outbox"], run: sendOutbox }),
];

/** Finds a job of the schedule by name. */
export function scheduledJob(name: string): ScheduledJob | undefined {
  return SCHEDULE.find((j) => j.name === name);
}

/** The outcome of one attempt: `ran` is false when another run held the job. */
export interface JobOutcome<T> {
  ran: boolean;
  result?: T;
}

/**
 * How long a run holds its job before it starts working. Calls that arrive meanwhile find the job
 * taken and answer skipped, so simultaneous calls make one run even when the run itself is quicker
 * than their spread. The embedded database needs it most: its queries run on this thread, so a
 * run finishes before requests that arrived during it are even read, and each would otherwise
 * start a run of its own.
 */
export const RUN_ONCE_SETTLE_MS = 50;

/**
 * Runs a job unless it is already running, in this process (`deps.runningJobs`) or, on a
 * Postgres server, on any instance: there the run holds a transaction-level advisory lock
 * (session locks leak through the pool). The embedded database serves one process, so the
 * in-process guard is the whole lock. Either way the holder waits RUN_ONCE_SETTLE_MS first.
 */
export async function runExclusively<T>(deps: Pick<Deps, "database" | "runningJobs">, job: ScheduledJob<T>, run: () => Promise<T>): Promise<JobOutcome<T>> {
  if (deps.runningJobs.has(job.name)) return { ran: false };
  deps.runningJobs.add(job.name);
  try {
    const pg = deps.database.pg;
    if (!pg) {
      await Bun.sleep(RUN_ONCE_SETTLE_MS);
      return { ran: true, result: await run() };
    }
    let outcome: JobOutcome<T> = { ran: false };
    await pg.begin(async (tx) => {
      const [row] = await tx`select pg_try_advisory_xact_lock(${job.lockKey}) as locked`;
      if (!row?.locked) return;
      await Bun.sleep(RUN_ONCE_SETTLE_MS);
      outcome = { ran: true, result: await run() };
    });
    return outcome;
  } finally {
    deps.runningJobs.delete(job.name);
  }
}

/** Runs a scheduled job once across the fleet (see `runExclusively`). */
export function runScheduledJob<T>(deps: Deps, job: ScheduledJob<T>): Promise<JobOutcome<T>> {
  return runExclusively(deps, job, () => job.run(deps));
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
            const { ran } = await runScheduledJob(deps, job);
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
