// The in-process schedule: every scheduled task in one list. With several instances, each run
// takes a Postgres advisory lock so a task runs once per tick across the fleet.

import { Elysia } from "elysia";
import { cron } from "@elysiajs/cron";
import type { Deps } from "../deps.ts";
import { cleanupAdminSessions } from "./cleanup-admin-sessions.ts";
import { cleanupRateLimits } from "./cleanup-rate-limits.ts";
import { backupEventStore, backupReport } from "./backup-event-store.ts";
import { trackingRetention } from "./tracking-retention.ts";
import { pruneTrackingMarkers } from "./prune-tracking-markers.ts";
import { warmCoordinatesTask, warmCoordinatesReport } from "./warm-coordinates.ts";
import { sendOutbox } from "./send-outbox.ts";
import { purgeSubmissions } from "./purge-submissions.ts";
import { TASK_LOCK_KEYS, tryTransactionLock } from "../lib/db/locks.ts";

/**
 * One scheduled task: a name (also its `/api/cron/<name>` path), a UTC cron pattern, a lock key
 * and the plain function it runs. `report` turns the result into the cron endpoint's JSON fields
 * (beside `ok: true`); without it the result is spread as it is.
 */
export interface ScheduledTask<T = any> {
  name: string;
  pattern: string;
  lockKey: number;
  run: (deps: Deps) => Promise<T>;
  report?: (result: T) => Record<string, unknown>;
}

function task<T>(definition: ScheduledTask<T>): ScheduledTask<T> {
  return definition;
}

/** The schedule (UTC): 04:00, 04:10, 04:20, 04:30 and 04:40 daily, every ten minutes, hourly at :30 and every 5 seconds (see docs/operations.md, "Scheduled tasks"). */
export const SCHEDULE: readonly ScheduledTask[] = [
  task({ name: "cleanup-admin-sessions", pattern: "0 4 * * *", lockKey: TASK_LOCK_KEYS["cleanup-admin-sessions"], run: cleanupAdminSessions }),
  task({ name: "cleanup-rate-limits", pattern: "10 4 * * *", lockKey: TASK_LOCK_KEYS["cleanup-rate-limits"], run: cleanupRateLimits }),
  task({ name: "backup-event-store", pattern: "20 4 * * *", lockKey: TASK_LOCK_KEYS["backup-event-store"], run: backupEventStore, report: backupReport }),
  task({ name: "prune-tracking-markers", pattern: "*/10 * * * *", lockKey: TASK_LOCK_KEYS["prune-tracking-markers"], run: pruneTrackingMarkers }),
  task({ name: "warm-coordinates", pattern: "30 * * * *", lockKey: TASK_LOCK_KEYS["warm-coordinates"], run: warmCoordinatesTask, report: warmCoordinatesReport }),
  task({ name: "tracking-retention", pattern: "30 4 * * *", lockKey: TASK_LOCK_KEYS["tracking-retention"], run: trackingRetention }),
  task({ name: "purge-submissions", pattern: "40 4 * * *", lockKey: TASK_LOCK_KEYS["purge-submissions"], run: purgeSubmissions }),
  // Seconds first: the outbox is polled every 5 s so a message leaves within seconds of its action.
  task({ name: "send-outbox", pattern: "*/5 * * * * *", lockKey: TASK_LOCK_KEYS["send-outbox"], run: sendOutbox }),
];

/** Finds a task of the schedule by name. */
export function scheduledTask(name: string): ScheduledTask | undefined {
  return SCHEDULE.find((t) => t.name === name);
}

/** The outcome of one attempt: `ran` is false when another run held the task. */
export interface TaskOutcome<T> {
  ran: boolean;
  result?: T;
}

/**
 * How long a run holds its task before it starts working. Calls that arrive meanwhile find the task
 * taken and answer skipped, so simultaneous calls make one run even when the run itself is quicker
 * than their spread. The embedded database needs it most: its queries run on this thread, so a
 * run finishes before requests that arrived during it are even read, and each would otherwise
 * start a run of its own.
 */
export const RUN_ONCE_SETTLE_MS = 50;

/**
 * Runs a task unless it is already running, in this process (`deps.runningTasks`) or, on a
 * Postgres server, on any instance: there the run holds a transaction-level advisory lock
 * (session locks leak through the pool). The embedded database serves one process, so the
 * in-process guard is the whole lock. Either way the holder waits RUN_ONCE_SETTLE_MS first.
 */
export async function runExclusively<T>(deps: Pick<Deps, "database" | "runningTasks">, task: ScheduledTask<T>, run: () => Promise<T>): Promise<TaskOutcome<T>> {
  if (deps.runningTasks.has(task.name)) return { ran: false };
  deps.runningTasks.add(task.name);
  try {
    const pg = deps.database.pg;
    if (!pg) {
      await Bun.sleep(RUN_ONCE_SETTLE_MS);
      return { ran: true, result: await run() };
    }
    let outcome: TaskOutcome<T> = { ran: false };
    await pg.begin(async (tx) => {
      if (!(await tryTransactionLock(tx, task.lockKey))) return;
      await Bun.sleep(RUN_ONCE_SETTLE_MS);
      outcome = { ran: true, result: await run() };
    });
    return outcome;
  } finally {
    deps.runningTasks.delete(task.name);
  }
}

/** Runs a scheduled task once across the fleet (see `runExclusively`). */
export function runScheduledTask<T>(deps: Deps, task: ScheduledTask<T>): Promise<TaskOutcome<T>> {
  return runExclusively(deps, task, () => task.run(deps));
}

/** The schedule as an Elysia plugin (@elysiajs/cron); its timers stop with `stopSchedule`. */
export function schedulePlugin(deps: Deps) {
  let app = new Elysia({ name: "schedule" });
  for (const task of SCHEDULE) {
    app = app.use(
      cron({
        name: task.name,
        pattern: task.pattern,
        timezone: "UTC",
        protect: true,
        run: async () => {
          try {
            const { ran } = await runScheduledTask(deps, task);
            if (!ran) deps.log.info("tasks", "Skipped: another instance holds the lock", { task: task.name });
          } catch (error) {
            deps.log.error("tasks", "Scheduled task failed", { task: task.name }, error);
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
