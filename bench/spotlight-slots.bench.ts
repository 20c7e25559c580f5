// Two service processes on one Postgres server schedule into the same spotlight slots at once;
// afterwards no instant may have more entries than slots, and no slot two entries at once.
// Needs a Postgres server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// Usage: bun bench/spotlight-slots.bench.ts [entries per process, default 100]

import { join } from "node:path";
import postgres from "postgres";
import { openDatabase } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { listSchedule } from "../src/lib/placements/scheduler.ts";

const url = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const perProcess = Number(process.argv[2] ?? 100);
const schemaName = `finder_bench_slots_${process.pid}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema "${schemaName}"`);
try {
  const database = await openDatabase({ url, schemaName, maxConnections: 4 });
  await migrateDatabase(database, schemaName);
  const started = performance.now();
  const children = ["a", "b"].map((label) =>
    Bun.spawn(["bun", join(import.meta.dir, "servers/spotlight-scheduler.ts"), url, schemaName, String(perProcess), label], { stdout: "inherit", stderr: "inherit" }),
  );
  const codes = await Promise.all(children.map((c) => c.exited));
  const seconds = (performance.now() - started) / 1000;
  if (codes.some((c) => c !== 0)) throw new Error(`a scheduler process failed: ${codes.join(",")}`);

  const listing = await listSchedule({ db: database.db, now: () => new Date(), slots: 3 }, "spotlight");
  const windows = listing.entries.filter((e) => e.status !== "cancelled").map((e) => ({ start: Date.parse(e.effectiveStartAt!), end: Date.parse(e.effectiveEndAt!), slot: e.slot }));
  let worst = 0;
  let slotClash = 0;
  for (const w of windows) {
    const at = windows.filter((o) => o.start <= w.start && w.start < o.end);
    worst = Math.max(worst, at.length);
    if (new Set(at.map((o) => o.slot)).size !== at.length) slotClash++;
  }
  console.log(`spotlight-slots: ${windows.length} entries from 2 processes in ${seconds.toFixed(1)} s; most overlapping at any start: ${worst} (slots 3); slot clashes: ${slotClash}`);
  await database.close(5);
  if (windows.length !== 2 * perProcess || worst > 3 || slotClash > 0) {
    console.error("FAIL: the slot count was exceeded or entries are missing");
    process.exitCode = 1;
  } else console.log("OK: never more than 3 at once");
} finally {
  await admin.unsafe(`drop schema if exists "${schemaName}" cascade`);
  await admin.end({ timeout: 5 });
}
