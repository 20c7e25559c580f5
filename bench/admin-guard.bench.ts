// Admin-token verification cost per request: a trivial route behind the admin guard (Bearer token:
// HS256 check + one session/version lookup) and with the key, against the same route without the
// guard, in one run on one server. Runs on embedded PGlite, and also on a Postgres server when
// TEST_DATABASE_URL is set (in a schema of its own, dropped afterwards).

import { Elysia } from "elysia";
import postgres from "postgres";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { openDatabase, type Database } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { adminGuard } from "../src/lib/auth/admin-guard.ts";
import { startAdminSession } from "../src/lib/auth/admin-sessions.ts";
import { load, report } from "./lib.ts";

const ADMIN_KEY = "bench-admin-key-0123456789";

async function run(database: Database | undefined): Promise<void> {
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "b".repeat(40), ADMIN_KEY, CRON_ENABLED: "false" });
  const deps = await buildDeps(config, { log: createMemoryLogger(), database, skipMigrations: database !== undefined });
  const { token } = await startAdminSession({ db: deps.db, secret: config.authSecret, now: deps.now() }, { ip: "127.0.0.1", ua: "bench" });

  const body = { ok: true };
  const app = new Elysia()
    .use(adminGuard(deps))
    .get("/guarded", () => body, { isAdmin: true })
    .get("/open", () => body)
    .listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const bearer = () => new Request(`${base}/guarded`, { headers: { authorization: `Bearer ${token}` } });
  const keyed = () => new Request(`${base}/guarded`, { headers: { "x-admin-key": ADMIN_KEY } });
  const open = () => new Request(`${base}/open`, { headers: { authorization: `Bearer ${token}` } });

  const opts = { total: 10000, concurrency: 32, expectStatus: 200 };
  for (const make of [open, bearer, keyed]) await load(make, { ...opts, total: 1000 }); // warm-up
  const baseline = await load(open, opts);
  const viaBearer = await load(bearer, opts);
  const viaKey = await load(keyed, opts);
  const engine = deps.database.engine;
  report(`admin guard (${engine}): Bearer vs no guard`, viaBearer, baseline);
  report(`admin guard (${engine}): X-Admin-Key vs no guard`, viaKey, baseline);
  const added = (r: { rps: number }) => ((1 / r.rps - 1 / baseline.rps) * 1e6).toFixed(0);
  console.log(`${"".padEnd(44)} added per request (1/throughput): Bearer ~${added(viaBearer)} µs, key ~${added(viaKey)} µs`);

  await app.stop(true);
  await deps.shutdown();
}

export async function benchAdminGuard(): Promise<void> {
  await run(undefined);
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url) return;
  const schema = `finder_bench_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema "${schema}"`);
  try {
    const database = await openDatabase({ url, schemaName: schema, maxConnections: 10 });
    await migrateDatabase(database, schema);
    await run(database);
  } finally {
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end({ timeout: 5 });
  }
}
