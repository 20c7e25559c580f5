// One "service process" for the spotlight two-process bench: opens the shared Postgres schema and
// schedules N spotlight entries, 10 at a time, through the real scheduler (its advisory lock).
// Usage: bun bench/servers/spotlight-scheduler.ts <url> <schema> <count> <label>

import { openDatabase } from "../../src/lib/db/client.ts";
import { scheduleEntry } from "../../src/lib/placements/scheduler.ts";

const [url, schemaName, countText, label] = process.argv.slice(2);
const database = await openDatabase({ url, schemaName, maxConnections: 10 });
const deps = { db: database.db, now: () => new Date(), slots: 3 };
const count = Number(countText);
for (let i = 0; i < count; i += 10) {
  await Promise.all(
    Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      scheduleEntry(deps, "spotlight", { eventKey: `evt_${label}_${i + j}`, requestedStartAt: new Date(), durationHours: 1 + ((i + j) % 5), createdBy: label! }),
    ),
  );
}
await database.close(5);
