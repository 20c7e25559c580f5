// A trivial route behind the admin guard and the same route without it, in a process of its own,
// for the admin-guard benchmark. Usage: bun bench/servers/admin-guard.server.ts [postgres-url]
// With a URL it works in a schema of its own on that server (dropped on SIGTERM); without, on PGlite.
// Prints `READY <port> {"token": "<admin bearer token>"}`.

import { Elysia } from "elysia";
import postgres from "postgres";
import { loadConfig } from "../../src/lib/config.ts";
import { buildDeps } from "../../src/deps.ts";
import { createMemoryLogger } from "../../src/lib/logger.ts";
import { openDatabase, type Database } from "../../src/lib/db/client.ts";
import { migrateDatabase } from "../../src/lib/db/migrate.ts";
import { adminGuard } from "../../src/lib/auth/admin-guard.ts";
import { startAdminSession } from "../../src/lib/auth/admin-sessions.ts";

import { BENCH_ADMIN_KEY } from "../fixtures.ts";

const url = process.argv[2];
const schema = `finder_bench_${process.pid}`;
let database: Database | undefined;
if (url) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema "${schema}"`);
  await admin.end({ timeout: 5 });
  database = await openDatabase({ url, schemaName: schema, maxConnections: 10 });
  await migrateDatabase(database, schema);
}
const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "b".repeat(40), ADMIN_KEY: BENCH_ADMIN_KEY, CRON_ENABLED: "false" });
const deps = await buildDeps(config, { log: createMemoryLogger(), database, skipMigrations: database !== undefined });
const { token } = await startAdminSession({ db: deps.db, secret: config.authSecret, now: deps.now() }, { ip: "127.0.0.1", ua: "bench" });
const body = { ok: true };
const app = new Elysia()
  .use(adminGuard(deps))
  .get("/guarded", () => body, { isAdmin: true })
  .get("/open", () => body)
  .listen({ port: 0, hostname: "127.0.0.1" });
console.log(`READY ${app.server!.port} ${JSON.stringify({ token, engine: deps.database.engine })}`);

process.on("SIGTERM", async () => {
  await app.stop(true);
  await deps.shutdown();
  if (url) {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end({ timeout: 5 });
  }
  process.exit(0);
});
