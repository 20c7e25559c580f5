// The floor of the cold-start benchmark: the embedded database started alone, the way the server
// starts it (its files read on a worker first, the template copied into a new DATA_DIR, the same
// settings), then the smallest server answering 200. What the real start takes beyond this is the
// service's own.

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadPgliteFiles, createPglite } from "../../src/lib/db/pglite-boot.ts";
import { copyPgliteTemplate } from "../../src/lib/db/pglite-template.ts";
import { pgliteDataFolder } from "../../src/lib/db/pglite-boot.ts";

void loadPgliteFiles();
const dataDir = process.env.DATA_DIR!;
const pgdata = pgliteDataFolder(dataDir);
if (!existsSync(join(pgdata, "PG_VERSION"))) {
  mkdirSync(dataDir, { recursive: true });
  await copyPgliteTemplate(pgdata);
}
const pglite = await createPglite(pgdata);
const server = Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch: () => new Response("ok") });
process.on("SIGTERM", async () => {
  server.stop(true);
  await pglite.close();
  process.exit(0);
});
