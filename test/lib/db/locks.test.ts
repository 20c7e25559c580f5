// The advisory-lock table: every key distinct, every scheduled task has its own, and no lock is
// taken anywhere but through lib/db/locks.ts.

import { expect, test } from "bun:test";
import { ALL_LOCK_KEYS, TASK_LOCK_KEYS } from "../../../src/lib/db/locks.ts";
import { SCHEDULE } from "../../../src/tasks/schedule.ts";
import { sourceFiles } from "../../helpers/sources.ts";

test("no two features share an advisory-lock key", () => {
  expect(new Set(ALL_LOCK_KEYS).size).toBe(ALL_LOCK_KEYS.length);
});

test("each scheduled task takes the key the table gives its name", () => {
  for (const task of SCHEDULE) expect(task.lockKey).toBe(TASK_LOCK_KEYS[task.name as keyof typeof TASK_LOCK_KEYS]);
  expect(SCHEDULE.map((task) => task.name).sort()).toEqual(Object.keys(TASK_LOCK_KEYS).sort());
});

test("advisory locks are taken only by the helpers of lib/db/locks.ts", () => {
  const elsewhere = sourceFiles()
    .filter((file) => file.path !== "lib/db/locks.ts" && /pg_(try_)?advisory/i.test(file.code))
    .map((file) => file.path);
  expect(elsewhere).toEqual([]);
});
