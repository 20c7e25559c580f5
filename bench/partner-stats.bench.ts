// Partner statistics for an activation with 1 M engagement records in its window, on a Postgres
// server: the JSON metrics query, beside a baseline (`select 1` round trip) in the same run, and
// beside the same rows in a copy of the table carrying only the index partner statistics had
// before (event_key, recorded_at desc), read by the same query text as a reused prepared
// statement, as it was. Also prints the plan of both, and a floor: count(*) of the window's rows.
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
  /**
   * Vacuums until the visibility map covers the table, as autovacuum keeps it in service: index-only
   * scans depend on it. Another session's long transaction on a shared server holds it back, so
   * this retries for a while and says when it gave up.
   */
  const settle = async (table: string) => {
    for (let attempt = 0; ; attempt++) {
      await database.query(sql.raw(`vacuum analyze ${table}`));
      const [{ visible }] = await database.query<{ visible: number }>(sql.raw(`select relallvisible::float / greatest(relpages, 1) as visible from pg_class where oid = '${table}'::regclass`));
      if (visible >= 0.99) return;
      if (attempt === 30) return console.log(`partner-stats: ${table} only ${(100 * visible).toFixed(0)} % all-visible (another session holds old snapshots); figures below are pessimistic`);
      await Bun.sleep(2000);
    }
  };
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
  await settle("engagement_interactions");
  const [{ n }] = await database.query<{ n: string }>(sql`select count(*) as n from engagement_interactions where event_key = 'evt_partner'`);
  console.log(`partner-stats: loaded ${rows} rows (${n} on the partner's event) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  await database.query(sql.raw("create table engagement_before as select * from engagement_interactions"));
  await database.query(sql.raw("create index on engagement_before (event_key, recorded_at desc)"));
  await settle("engagement_before");
  const oldQuery = (table: string) => `
    select coalesce(sum(clicks), 0) as clicks, coalesce(sum(outbound), 0) as outbound, coalesce(sum(calendar), 0) as calendar,
           count(session_id) as sessions, count(session_id) filter (where clicks > 0) as view_sessions,
           count(session_id) filter (where outbound > 0) as outbound_sessions, count(session_id) filter (where calendar > 0) as calendar_sessions
    from (select session_id, count(*) filter (where action_type = 'click') as clicks, count(*) filter (where action_type = 'outbound_click') as outbound,
                 count(*) filter (where action_type = 'calendar_sync') as calendar
          from ${table} where event_key = $1 and recorded_at >= $2 and recorded_at < $3 group by session_id) per_session`;
  const params = ["evt_partner", start.toISOString(), end.toISOString()];
  const pg = database.pg!;
  const previous = () => pg.unsafe(oldQuery("engagement_before"), params, { prepare: true });
  const floor = () => pg.unsafe("select count(*) from engagement_interactions where event_key = $1 and recorded_at >= $2 and recorded_at < $3", params, { prepare: true });

  const before = await time(30, () => database.query(sql`select 1`));
  const metrics = await readMetrics(database.db, "evt_partner", start, end);
  const [old] = await previous();
  const subject = await time(30, () => readMetrics(database.db, "evt_partner", start, end));
  const formerly = await time(30, previous);
  const counting = await time(30, floor);
  const after = await time(30, () => database.query(sql`select 1`));
  const baseline = (before.median + after.median) / 2;
  console.log(`partner-stats: metrics query median ${subject.median.toFixed(1)} ms, p90 ${subject.p90.toFixed(1)} ms (target < 50 ms); baseline select 1 ${baseline.toFixed(2)} ms; ratio ${(subject.median / baseline).toFixed(0)}x`);
  console.log(`partner-stats: before (old index, reused prepared statement) median ${formerly.median.toFixed(1)} ms, p90 ${formerly.p90.toFixed(1)} ms; now ${(formerly.median / subject.median).toFixed(1)}x faster`);
  console.log(`partner-stats: floor count(*) of the window's rows median ${counting.median.toFixed(1)} ms`);
  console.log(`partner-stats: clicks ${metrics.clickCount}, unique sessions ${metrics.uniqueSessionCount}; same figures before: ${Number(old!.clicks) === metrics.clickCount && Number(old!.sessions) === metrics.uniqueSessionCount && Number(old!.calendar_sessions) === metrics.uniqueCalendarSessionCount}`);
  // The plan each one runs: now planned for its values; before, the generic plan a prepared
  // statement settles on after its fifth run.
  const plan = async (statement: string, mode: "force_custom_plan" | "force_generic_plan") =>
    (await pg.begin(async (tx) => {
      await tx.unsafe(`set local plan_cache_mode = ${mode}`);
      return tx.unsafe(`explain (analyze, buffers) ${statement}`, params, { prepare: true });
    })).map((r) => `    ${r["QUERY PLAN"]}`).join("\n");
  console.log(`partner-stats: plan now:\n${await plan(oldQuery("engagement_interactions"), "force_custom_plan")}`);
  console.log(`partner-stats: plan before:\n${await plan(oldQuery("engagement_before"), "force_generic_plan")}`);
  await database.close(5);
} finally {
  await admin.unsafe(`drop schema if exists "${schemaName}" cascade`);
  await admin.end({ timeout: 5 });
}
