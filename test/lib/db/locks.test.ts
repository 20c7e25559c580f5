// The advisory-lock table: every key distinct, and every scheduled job has its own.

import { expect, test } from "bun:test";
import { ALL_LOCK_KEYS, JOB_LOCK_KEYS } from "../../../src/lib/db/locks.ts";
import { SCHEDULE } from "../../../src/jobs/schedule.ts";

test("no two features share an advisory-lock key", () => {
  expect(new Set(ALL_LOCK_KEYS).size).toBe(ALL_LOCK_KEYS.length);
});

test("each scheduled job takes the key the table gives its name", () => {
  for (const job of SCHEDULE) expect(job.lockKey).toBe(JOB_LOCK_KEYS[job.name as keyof typeof JOB_LOCK_KEYS]);
  expect(SCHEDULE.map((job) => job.name).sort()).toEqual(Object.keys(JOB_LOCK_KEYS).sort());
});
