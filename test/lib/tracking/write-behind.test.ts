import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createWriteBehind } from "../../../src/lib/tracking/write-behind.ts";
import { insertDiscoveryBatch, insertEngagementBatch, pruneBatchMarkers, upsertPreferenceBatch, type EngagementRow } from "../../../src/lib/tracking/rows.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { useTestApp } from "../../helpers/app.ts";

/** A writer that records batches and can be told to fail. */
function fakeWriter() {
  const batches: { id: string; rows: number[] }[] = [];
  const applied = new Set<string>();
  let failWith: unknown;
  let permanentFor: ((row: number) => boolean) | undefined;
  return {
    batches,
    applied,
    fail(error: unknown) {
      failWith = error;
    },
    heal() {
      failWith = undefined;
    },
    refuse(predicate: (row: number) => boolean) {
      permanentFor = predicate;
    },
    write: async (rows: readonly number[], id: string) => {
      await Promise.resolve();
      if (failWith) throw failWith;
      if (permanentFor && rows.some(permanentFor)) throw Object.assign(new Error("invalid input"), { code: "22P02" });
      batches.push({ id, rows: [...rows] });
      applied.add(id);
    },
  };
}

const connectionLost = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("write-behind queue", () => {
  test("rows wait for the interval and go out as one multi-row batch", async () => {
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 30, batchSize: 100 });
    for (let i = 0; i < 10; i++) expect(queue.enqueue(i)).toBe(true);
    expect(writer.batches).toHaveLength(0);
    await sleep(80);
    expect(writer.batches).toEqual([{ id: expect.any(String), rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }]);
    expect(queue.stats()).toMatchObject({ accepted: 10, written: 10, backlog: 0, dropped: 0 });
  });

  test("a full batch is written at once, without waiting for the interval", async () => {
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 60_000, batchSize: 5 });
    for (let i = 0; i < 12; i++) queue.enqueue(i);
    await sleep(5);
    expect(writer.batches.map((b) => b.rows.length)).toEqual([5, 5]);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    await queue.close();
  });

  test("a transient failure keeps the rows and retries the same batch id; nothing is lost or doubled", async () => {
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 3, retryInitialMs: 10, retryMaxMs: 20 });
    writer.fail(connectionLost);
    for (let i = 0; i < 7; i++) queue.enqueue(i);
    expect(await queue.flush()).toBe(false);
    expect(queue.stats()).toMatchObject({ failing: true, backlog: 7, written: 0 });
    expect(log.lines.some((l) => l.level === "warn" && l.line.includes("rows kept for retry"))).toBe(true);
    // More rows arrive while the database is down.
    for (let i = 7; i < 10; i++) queue.enqueue(i);
    writer.heal();
    await sleep(60);
    expect(await queue.flush()).toBe(true);
    const written = writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b);
    expect(written).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(new Set(writer.batches.map((b) => b.id)).size).toBe(writer.batches.length);
    expect(queue.stats()).toMatchObject({ failing: false, written: 10, backlog: 0 });
    expect(log.lines.some((l) => l.line.includes("Database writes recovered"))).toBe(true);
  });

  test("the backlog is bounded: the newest rows are refused and counted, with one error line", async () => {
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 10, maxQueued: 25, retryInitialMs: 10 });
    writer.fail(connectionLost);
    let accepted = 0;
    for (let i = 0; i < 100; i++) if (queue.enqueue(i)) accepted++;
    expect(accepted).toBe(25);
    expect(queue.stats()).toMatchObject({ accepted: 25, dropped: 75 });
    const errors = log.lines.filter((l) => l.level === "error" && l.line.includes("dropping"));
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0].line).context).toMatchObject({ queue: "t", dropped: 1 });
    writer.heal();
    await sleep(40);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  test("a row the database refuses is isolated and dropped; the rest of its batch is written", async () => {
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 8 });
    writer.refuse((row) => row === 5);
    for (let i = 0; i < 8; i++) queue.enqueue(i);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(queue.stats()).toMatchObject({ written: 7, rejected: 1, backlog: 0 });
    expect(log.lines.filter((l) => l.line.includes("refused a tracking row"))).toHaveLength(1);
  });

  test("close drains what is queued; with the database down it reports what was lost", async () => {
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 60_000 });
    for (let i = 0; i < 4; i++) queue.enqueue(i);
    await queue.close();
    expect(writer.batches.flatMap((b) => b.rows)).toEqual([0, 1, 2, 3]);
    expect(queue.enqueue(9)).toBe(false);

    const down = fakeWriter();
    const log = createMemoryLogger();
    const other = createWriteBehind<number>({ name: "down", write: down.write, log, retryInitialMs: 10 });
    down.fail(connectionLost);
    other.enqueue(1);
    other.enqueue(2);
    await other.close(100);
    const lost = log.lines.find((l) => l.line.includes("Shutdown with unwritten tracking rows"));
    expect(JSON.parse(lost!.line).context).toEqual({ queue: "down", lost: 2 });
  });
});

test("close never waits past its deadline, even for a write that hangs", async () => {
  const log = createMemoryLogger();
  const queue = createWriteBehind<number>({ name: "hang", write: () => new Promise<void>(() => {}), log, flushIntervalMs: 1 });
  queue.enqueue(1);
  await sleep(5);
  const started = Date.now();
  await queue.close(200);
  expect(Date.now() - started).toBeLessThan(1000);
  expect(log.lines.some((l) => l.line.includes("Shutdown with unwritten tracking rows"))).toBe(true);
});

describe("batch writers on the database", () => {
  const ctx = useTestApp();

  const row = (i: number): EngagementRow => ({
    event_key: "evt_fixture000001",
    action_type: "click",
    session_id: `s${i}`,
    source: i % 2 ? null : "event_open",
    path: `/?q=<b>${i}</b>&x='"; drop table users; --`,
    is_authenticated: false,
    user_email: null,
    recorded_at: new Date(Date.UTC(2026, 5, 21, 10, 0, i)).toISOString(),
  });

  test("a batch id is applied once: the retry of an applied batch inserts nothing", async () => {
    const id = crypto.randomUUID();
    const rows = Array.from({ length: 50 }, (_, i) => row(i));
    await insertEngagementBatch(ctx.deps.db, rows, id);
    await insertEngagementBatch(ctx.deps.db, rows, id);
    const [{ n, paths }] = await ctx.deps.database.query<{ n: number; paths: number }>(sql`select count(*)::int n, count(distinct path)::int paths from engagement_interactions`);
    expect(n).toBe(50);
    expect(paths).toBe(50);
    const [stored] = await ctx.deps.database.query<{ path: string; recorded_at: unknown }>(sql`select path, recorded_at from engagement_interactions where session_id = 's3'`);
    expect(stored.path).toBe(`/?q=<b>3</b>&x='"; drop table users; --`);
    expect(new Date(stored.recorded_at as string).toISOString()).toBe("2026-06-21T10:00:03.000Z");
  });

  test("discovery rows and preference increments are written; repeated increments add up atomically", async () => {
    await insertDiscoveryBatch(ctx.deps.db, [{ action_type: "search", session_id: "s", user_email: null, filter_group: null, filter_value: null, search_query: "émoji 🎶", path: "/", is_authenticated: false, recorded_at: new Date().toISOString() }], crypto.randomUUID());
    const at = "2026-06-21T10:00:00.000Z";
    const later = "2026-06-21T11:00:00.000Z";
    await upsertPreferenceBatch(
      ctx.deps.db,
      [
        { email: "a@x.fr", genre: "house", score: 2, at },
        { email: "a@x.fr", genre: "house", score: 3, at: later },
        { email: "a@x.fr", genre: "r&b", score: 1, at },
      ],
      crypto.randomUUID(),
    );
    const again = crypto.randomUUID();
    await upsertPreferenceBatch(ctx.deps.db, [{ email: "a@x.fr", genre: "house", score: 10, at: later }], again);
    await upsertPreferenceBatch(ctx.deps.db, [{ email: "a@x.fr", genre: "house", score: 10, at: later }], again);
    const prefs = await ctx.deps.database.query<{ genre: string; score: number; first_seen_at: unknown; last_seen_at: unknown }>(sql`select genre, score, first_seen_at, last_seen_at from genre_preferences order by genre`);
    expect(prefs.map((p) => [p.genre, p.score])).toEqual([
      ["house", 15],
      ["r&b", 1],
    ]);
    expect(new Date(prefs[0].first_seen_at as string).toISOString()).toBe(at);
    expect(new Date(prefs[0].last_seen_at as string).toISOString()).toBe(later);
    const [{ q }] = await ctx.deps.database.query<{ q: string }>(sql`select search_query q from discovery_interactions`);
    expect(q).toBe("émoji 🎶");
  });

  test("markers older than an hour are pruned", async () => {
    await ctx.deps.database.query(sql`insert into write_batches (id, applied_at) values (gen_random_uuid(), now() - interval '2 hours'), (gen_random_uuid(), now())`);
    expect(await pruneBatchMarkers(ctx.deps.db)).toBe(1);
    const [{ n }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int n from write_batches where applied_at < now() - interval '1 hour'`);
    expect(n).toBe(0);
  });
});
