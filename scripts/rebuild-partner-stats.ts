// Operator command: recomputes the partner statistics rollups from the raw engagement records
// (`npm run partners:rebuild`; docs/placements.md, "Partner statistics"). Uses the same
// configuration as the server. With the embedded database (no DATABASE_URL) stop the server
// first: only one process can open its data directory.

import { loadConfig } from "../src/lib/config.ts";
import { loggerFor } from "../src/deps.ts";
import { openDatabase } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { rebuildPartnerStats } from "../src/lib/partners/rollup.ts";

const config = loadConfig();
const log = loggerFor(config);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataMode === "test" ? undefined : config.dataDir });
try {
  await migrateDatabase(database);
  const outcome = await rebuildPartnerStats({ db: database.db, log });
  console.log(`finder: partner statistics rollups rebuilt in ${outcome.seconds} s (${outcome.activations} activations)`);
} finally {
  await database.close(5);
}
