// Every Postgres advisory-lock key of the service, in one table: two features taking the same key
// would serialise each other (or one would skip its run) for no reason, and that is only visible here.

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

/** Every key above, for the test that they are distinct. */
export const ALL_LOCK_KEYS: readonly number[] = [STORE_LOCK_KEY, ...Object.values(SCHEDULER_LOCK_KEYS), ...Object.values(TASK_LOCK_KEYS)];
