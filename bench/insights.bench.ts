// The insights dashboard at festival scale, on the local Postgres server, in a schema of its own:
//   1. seeds 5,000,000 engagement and 1,000,000 discovery rows with server-side INSERT … SELECT
//      over generate_series (the fastest way to fill a table here; the time is printed), skewed
//      towards the last days the way festival traffic is, over 120 days;
//   2. times GET /api/admin/insights (whole JSON, through the app, key auth) 20 times for 7, 30
//      and 90 days and prints the median and p95;
//   3. measures tracking insert throughput (the write-behind's own batch writer, 500-row
//      batches) for a few seconds alone, then while the dashboard is read continuously beside it.
// Run: `bun bench/insights.bench.ts` (BENCH_DATABASE_URL to use another server; BENCH_ENGAGEMENT_ROWS,
// BENCH_DISCOVERY_ROWS and BENCH_CALLS for a smaller run). The schema is
// dropped at the end. Figures on a shared, loaded machine are noisy.

import postgres from "postgres";
import { randomUUID } from "node:crypto";
import { openDatabase } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { insertEngagementBatch, type EngagementRow } from "../src/lib/tracking/rows.ts";

const URL_ = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const ENGAGEMENT_ROWS = Number(process.env.BENCH_ENGAGEMENT_ROWS ?? 5_000_000);
const DISCOVERY_ROWS = Number(process.env.BENCH_DISCOVERY_ROWS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const ADMIN_KEY = "bench-admin-key-0123456789";
const THROUGHPUT_SECONDS = 5;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

export async function benchInsights(): Promise<void> {
  const schema = `finder_bench_insights_${process.pid}`;
  const admin = postgres(URL_, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema "${schema}"`);
  const database = await openDatabase({ url: URL_, schemaName: schema, maxConnections: 10 });
  try {
    await migrateDatabase(database, schema);
    const pg = database.pg!;
    const now = new Date();

    let t = performance.now();
    // Recent days get most rows (random()^3 skews towards 0 days ago); 600 events, 400,000 sessions.
    const chunk = 1_000_000;
    for (let done = 0; done < ENGAGEMENT_ROWS; done += chunk) {
      await pg.unsafe(`
        insert into engagement_interactions (event_key, action_type, session_id, source, path, is_authenticated, user_email, recorded_at)
        select 'evt-' || (floor(power(random(), 2) * 600))::int,
          case when r < 0.7 then 'click' when r < 0.9 then 'outbound_click' else 'calendar_sync' end,
          case when random() < 0.03 then null else 'sess-' || (floor(random() * 400000))::int end,
          'event_open', '/', r2 < 0.05, case when r2 < 0.05 then 'user' || (floor(random() * 20000))::int || '@example.org' end,
          $1::timestamptz - power(random(), 3) * interval '120 days'
        from (select random() as r, random() as r2 from generate_series(1, ${Math.min(chunk, ENGAGEMENT_ROWS - done)})) g`, [now.toISOString()]);
    }
    await pg.unsafe(`
      insert into discovery_interactions (action_type, session_id, filter_group, filter_value, search_query, path, is_authenticated, recorded_at)
      select case when r < 0.6 then 'search' when r < 0.95 then 'filter_apply' else 'filter_clear' end,
        'sess-' || (floor(random() * 400000))::int,
        case when r >= 0.6 and r < 0.95 then (array['genre','arrondissement','price_range','day_night'])[1 + floor(random() * 4)::int] end,
        case when r >= 0.6 and r < 0.95 then 'v' || floor(power(random(), 2) * 40)::int end,
        case when r < 0.6 then (array['techno','tecno','house','afro house','afrohouse','jazz','rap','pop','r&b','rnb','hip hop','hiphop'])[1 + floor(random() * 12)::int] || case when random() < 0.3 then ' ' || floor(random() * 2000)::int else '' end end,
        '/', false, $1::timestamptz - power(random(), 3) * interval '120 days'
      from (select random() as r from generate_series(1, ${DISCOVERY_ROWS})) g`, [now.toISOString()]);
    await pg.unsafe(`analyze`);
    const seedSeconds = (performance.now() - t) / 1000;
    console.log(`insights: seeded ${ENGAGEMENT_ROWS.toLocaleString("en")} engagement + ${DISCOVERY_ROWS.toLocaleString("en")} discovery rows in ${seedSeconds.toFixed(1)} s (INSERT … SELECT generate_series, indexes in place)`);

    const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "bench-auth-secret-0123456789abcdef-0123", ADMIN_KEY, CRON_ENABLED: "false", DATA_DIR: "/tmp/finder-bench-insights" });
    const deps = await buildDeps(config, { database, log: createMemoryLogger("json"), skipMigrations: true, ownsDatabase: false });
    const app = createApp(deps);
    const call = async (days: number) => {
      const started = performance.now();
      const res = await app.handle(new Request(`http://bench.test/api/admin/insights?windowDays=${days}`, { headers: { "x-admin-key": ADMIN_KEY } }));
      const body = await res.text();
      if (res.status !== 200) throw new Error(`status ${res.status}: ${body.slice(0, 200)}`);
      return performance.now() - started;
    };
    await call(30); // warm-up: plans, catalog, caches
    for (const days of [7, 30, 90]) {
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) times.push(await call(days));
      console.log(`insights: GET /api/admin/insights?windowDays=${days}: median ${quantile(times, 0.5).toFixed(0)} ms, p95 ${quantile(times, 0.95).toFixed(0)} ms (${CALLS} calls, target < 300 ms for 30 days)`);
    }

    const batch = (): EngagementRow[] =>
      Array.from({ length: 500 }, (_, i) => ({ event_key: `evt-${i % 600}`, action_type: "click", session_id: `live-${i}`, source: null, path: null, is_authenticated: false, user_email: null, recorded_at: new Date().toISOString() }));
    const inserts = async (seconds: number) => {
      const until = performance.now() + seconds * 1000;
      let rows = 0;
      while (performance.now() < until) {
        await insertEngagementBatch(deps.db, batch(), randomUUID());
        rows += 500;
      }
      return rows / seconds;
    };
    const alone = await inserts(THROUGHPUT_SECONDS);
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        await call(30);
        reads++;
      }
    })();
    const beside = await inserts(THROUGHPUT_SECONDS);
    reading = false;
    await reader;
    console.log(`insights: tracking inserts ${alone.toFixed(0)} rows/s alone, ${beside.toFixed(0)} rows/s while the 30-day dashboard was read ${reads} times beside (ratio ${(beside / alone).toFixed(2)})`);
    await deps.shutdown();
  } finally {
    await database.close(5);
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.main) await benchInsights();
