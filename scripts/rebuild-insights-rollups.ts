// Operator command: recomputes the insights rollups from the raw tracking rows
// (`npm run insights:rebuild`; docs/insights.md, "Rollups"). Uses the same configuration as the
// server. With the embedded database (no DATABASE_URL) stop the server first: only one process
// can open its data directory.

import { loadConfig } from "../src/lib/config.ts";
import { loggerFor } from "../src/deps.ts";
import { openDatabase } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { rebuildRollups } from "../src/lib/insights/rollups.ts";

const config = loadConfig();
const log = loggerFor(config);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataMode === "test" ? undefined : config.dataDir });
try {
  await migrateDatabase(database);
  const outcome = await rebuildRollups({ db: database.db, log });
  console.log(`finder: insights rollups rebuilt in ${outcome.seconds} s (${outcome.dailyEngagementRows} event-days, ${outcome.sessions} sessions)`);
} finally {
  await database.close(5);
}
