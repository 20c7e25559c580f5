// The insights dashboard at festival scale, on the local Postgres server, in a schema of its own:
//   1. seeds 5,000,000 engagement and 1,000,000 discovery rows with server-side INSERT … SELECT
//      over generate_series (the fastest way to fill a table here; the time is printed), skewed
//      towards the last days the way festival traffic is, over 120 days, each chunk in time order
//      (as tracking rows arrive, so a day's rows sit together on disk). The rollup triggers are
//      off while seeding; the rollups are then built by insights_rebuild_rollups() (timed), the
//      same function the migration and `npm run insights:rebuild` use;
//   2. times GET /api/admin/insights (whole JSON, through the app, key auth) 20 times for 7, 30
//      and 90 days and prints the median and p95, then each htmx fragment of the page for 30 days;
//   3. measures tracking insert throughput (the write-behind's own batch writer, 500-row
//      batches, rollup triggers on) for a few seconds alone, then while the dashboard is read
//      continuously beside it, and the same alone with the triggers off (the rollups' write cost).
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
  // Seeding and the rebuild run longer than the app's statement timeout: a connection of their own.
  const pg = postgres(URL_, { max: 1, onnotice: () => {}, connection: { search_path: schema, statement_timeout: 0 } });
  try {
    await migrateDatabase(database, schema);
    const now = new Date();

    let t = performance.now();
    await pg.unsafe(`alter table engagement_interactions disable trigger insights_engagement_rollups`);
    await pg.unsafe(`alter table discovery_interactions disable trigger insights_discovery_rollups`);
    // The secondary indexes are dropped while seeding and built again afterwards (far faster
    // than updating them row by row); the time printed includes building them.
    const indexes = await pg.unsafe<{ indexname: string; indexdef: string }[]>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('engagement_interactions', 'discovery_interactions') and indexname not like '%pkey'`,
    );
    for (const index of indexes) await pg.unsafe(`drop index "${index.indexname}"`);
    // Recent days get most rows (random()^3 skews towards 0 days ago); 600 events, 400,000 sessions.
    const chunk = 1_000_000;
    for (let done = 0; done < ENGAGEMENT_ROWS; done += chunk) {
      await pg.unsafe(`
        insert into engagement_interactions (event_key, action_type, session_id, source, path, is_authenticated, user_email, recorded_at)
        select 'evt-' || (floor(power(random(), 2) * 600))::int,
          case when r < 0.7 then 'click' when r < 0.9 then 'outbound_click' else 'calendar_sync' end,
          case when random() < 0.03 then null else 'sess-' || (floor(random() * 400000))::int end,
          'event_open', '/', r2 < 0.05, case when r2 < 0.05 then 'user' || (floor(random() * 20000))::int || '@example.org' end,
          $1::timestamptz - power(random(), 3) * interval '120 days' as at
        from (select random() as r, random() as r2 from generate_series(1, ${Math.min(chunk, ENGAGEMENT_ROWS - done)})) g
        order by at`, [now.toISOString()]);
    }
    await pg.unsafe(`
      insert into discovery_interactions (action_type, session_id, filter_group, filter_value, search_query, path, is_authenticated, recorded_at)
      select case when r < 0.6 then 'search' when r < 0.95 then 'filter_apply' else 'filter_clear' end,
        'sess-' || (floor(random() * 400000))::int,
        case when r >= 0.6 and r < 0.95 then (array['genre','arrondissement','price_range','day_night'])[1 + floor(random() * 4)::int] end,
        case when r >= 0.6 and r < 0.95 then 'v' || floor(power(random(), 2) * 40)::int end,
        case when r < 0.6 then (array['techno','tecno','house','afro house','afrohouse','jazz','rap','pop','r&b','rnb','hip hop','hiphop'])[1 + floor(random() * 12)::int] || case when random() < 0.3 then ' ' || floor(random() * 2000)::int else '' end end,
        '/', false, $1::timestamptz - power(random(), 3) * interval '120 days' as at
      from (select random() as r from generate_series(1, ${DISCOVERY_ROWS})) g
      order by at`, [now.toISOString()]);
    for (const index of indexes) await pg.unsafe(index.indexdef);
    const seedSeconds = (performance.now() - t) / 1000;
    console.log(`insights: seeded ${ENGAGEMENT_ROWS.toLocaleString("en")} engagement + ${DISCOVERY_ROWS.toLocaleString("en")} discovery rows in ${seedSeconds.toFixed(1)} s (INSERT … SELECT generate_series, then ${indexes.length} indexes built)`);
    await pg.unsafe(`alter table engagement_interactions enable trigger insights_engagement_rollups`);
    await pg.unsafe(`alter table discovery_interactions enable trigger insights_discovery_rollups`);
    t = performance.now();
    await pg.unsafe(`select insights_rebuild_rollups()`);
    const [sizes] = await pg.unsafe(`select (select count(*) from insights_daily_engagement) as days, (select count(*) from insights_engagement_sessions) as sessions, (select count(*) from insights_event_sessions) as pairs`);
    console.log(`insights: rollups rebuilt from the raw rows in ${((performance.now() - t) / 1000).toFixed(1)} s (${sizes.days} event-days, ${sizes.sessions} sessions, ${sizes.pairs} session-event pairs)`);
    // What autovacuum does after a bulk load: statistics, and the visibility map that lets the
    // latest-row counts read their indexes alone.
    await pg.unsafe(`vacuum analyze`);

    const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "bench-auth-secret-0123456789abcdef-0123", ADMIN_KEY, CRON_ENABLED: "false", DATA_DIR: "/tmp/finder-bench-insights" });
    const deps = await buildDeps(config, { database, log: createMemoryLogger("json"), skipMigrations: true, ownsDatabase: false });
    const app = createApp(deps);
    const call = (days: number) => get(`/api/admin/insights?windowDays=${days}`);
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await app.handle(new Request(`http://bench.test${path}`, { headers: { "x-admin-key": ADMIN_KEY, ...headers } }));
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
    for (const path of ["/admin/insights/stats", "/admin/insights/discovery", "/admin/insights/events"]) {
      const times: number[] = [];
      for (let i = 0; i < Math.min(CALLS, 10); i++) times.push(await get(`${path}?windowDays=30`, { "hx-request": "true" }));
      console.log(`insights: GET ${path}?windowDays=30 (htmx fragment): median ${quantile(times, 0.5).toFixed(0)} ms, p95 ${quantile(times, 0.95).toFixed(0)} ms`);
    }

    const batch = (): EngagementRow[] =>
      Array.from({ length: 500 }, () => ({ event_key: `evt-${Math.floor(Math.random() * 600)}`, action_type: "click", session_id: `live-${Math.floor(Math.random() * 50_000)}`, source: null, path: null, is_authenticated: false, user_email: null, recorded_at: new Date().toISOString() }));
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
    await pg.unsafe(`alter table engagement_interactions disable trigger insights_engagement_rollups`);
    const bare = await inserts(THROUGHPUT_SECONDS);
    await pg.unsafe(`alter table engagement_interactions enable trigger insights_engagement_rollups`);
    console.log(`insights: tracking inserts ${bare.toFixed(0)} rows/s alone with the rollup trigger off (rollups cost ratio ${(alone / bare).toFixed(2)})`);
    await deps.shutdown();
  } finally {
    await pg.end({ timeout: 5 });
    await database.close(5);
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.main) await benchInsights();
