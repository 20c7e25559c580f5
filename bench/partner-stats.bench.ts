// Partner statistics for an activation with 1 M engagement records in its window, on a Postgres
// server: the JSON metrics query, beside a baseline (`select 1` round trip) in the same run.
// Needs a Postgres server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
// Usage: bun bench/partner-stats.bench.ts [rows, default 1000000] [share of rows on the partner's event, default 0.1]

import postgres from "postgres";
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/lib/db/client.ts";
import { migrateDatabase } from "../src/lib/db/migrate.ts";
import { readMetrics } from "../src/lib/partners/stats.ts";

const url = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rows = Number(process.argv[2] ?? 1_000_000);
const share = Number(process.argv[3] ?? 0.1);
const schemaName = `finder_bench_stats_${process.pid}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema "${schemaName}"`);

async function time(runs: number, work: () => Promise<unknown>): Promise<{ median: number; p90: number }> {
  for (let i = 0; i < 3; i++) await work(); // warm-up, discarded
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)]!, p90: samples[Math.floor(runs * 0.9)]! };
}

try {
  // Loading a million rows on a busy machine can outlast the app's 30 s statement limit.
  const database = await openDatabase({ url, schemaName, maxConnections: 2, statementTimeoutMs: 600_000 });
  await migrateDatabase(database, schemaName);
  const start = new Date("2026-06-19T10:00:00Z");
  const end = new Date("2026-06-21T10:00:00Z");
  const loadStarted = performance.now();
  // Rows spread over the 48 h window: `share` on the partner's event, the rest on 199 others;
  // ~1 session in 4 repeats, actions 80 % click, 12 % outbound, 8 % calendar.
  await database.query(sql.raw(`
    insert into engagement_interactions (event_key, action_type, session_id, recorded_at)
    select case when random() < ${share} then 'evt_partner' else 'evt_other_' || (g % 199) end,
           case when r < 0.8 then 'click' when r < 0.92 then 'outbound_click' else 'calendar_sync' end,
           's' || (g / 4 + floor(random() * 3))::int,
           timestamptz '2026-06-19T10:00:00Z' + (random() * interval '48 hours')
    from (select g, random() as r from generate_series(1, ${rows}) g) t`));
  await database.query(sql.raw("vacuum analyze engagement_interactions"));
  const [{ n }] = await database.query<{ n: string }>(sql`select count(*) as n from engagement_interactions where event_key = 'evt_partner'`);
  console.log(`partner-stats: loaded ${rows} rows (${n} on the partner's event) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  const before = await time(30, () => database.query(sql`select 1`));
  const metrics = await readMetrics(database.db, "evt_partner", start, end);
  const subject = await time(30, () => readMetrics(database.db, "evt_partner", start, end));
  const after = await time(30, () => database.query(sql`select 1`));
  const baseline = (before.median + after.median) / 2;
  console.log(`partner-stats: metrics query median ${subject.median.toFixed(1)} ms, p90 ${subject.p90.toFixed(1)} ms (target < 50 ms); baseline select 1 ${baseline.toFixed(2)} ms; ratio ${(subject.median / baseline).toFixed(0)}x`);
  console.log(`partner-stats: clicks ${metrics.clickCount}, unique sessions ${metrics.uniqueSessionCount}`);
  await database.close(5);
} finally {
  await admin.unsafe(`drop schema if exists "${schemaName}" cascade`);
  await admin.end({ timeout: 5 });
}
