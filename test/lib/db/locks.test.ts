// The advisory-lock table: every key distinct, and every scheduled task has its own.

import { expect, test } from "bun:test";
import { ALL_LOCK_KEYS, TASK_LOCK_KEYS } from "../../../src/lib/db/locks.ts";
import { SCHEDULE } from "../../../src/tasks/schedule.ts";

test("no two features share an advisory-lock key", () => {
  expect(new Set(ALL_LOCK_KEYS).size).toBe(ALL_LOCK_KEYS.length);
});

test("each scheduled task takes the key the table gives its name", () => {
  for (const task of SCHEDULE) expect(task.lockKey).toBe(TASK_LOCK_KEYS[task.name as keyof typeof TASK_LOCK_KEYS]);
  expect(SCHEDULE.map((task) => task.name).sort()).toEqual(Object.keys(TASK_LOCK_KEYS).sort());
});
