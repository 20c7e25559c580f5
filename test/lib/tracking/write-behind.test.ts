import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createWriteBehind } from "../../../src/lib/tracking/write-behind.ts";
import { insertDiscoveryBatch, insertEngagementBatch, pruneBatchMarkers, upsertPreferenceBatch, type EngagementRow } from "../../../src/lib/tracking/rows.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { useTestApp } from "../../helpers/app.ts";
import { createTestTimers } from "../../helpers/timers.ts";

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
// Every queue runs on a test clock: time moves only through `timers.advance`, nothing sleeps.

describe("write-behind queue", () => {
  test("rows wait for the interval and go out as one multi-row batch", async () => {
    const timers = createTestTimers();
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 30, batchSize: 100 });
    for (let i = 0; i < 10; i++) expect(queue.enqueue(i)).toBe(true);
    expect(writer.batches).toHaveLength(0);
    await timers.advance(29);
    expect(writer.batches).toHaveLength(0);
    await timers.advance(1);
    expect(writer.batches).toEqual([{ id: expect.any(String), rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }]);
    expect(queue.stats()).toMatchObject({ accepted: 10, written: 10, backlog: 0, dropped: 0 });
  });

  test("a full batch is written at once, without waiting for the interval", async () => {

    const timers = createTestTimers();
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 60_000, batchSize: 5 });
    for (let i = 0; i < 12; i++) queue.enqueue(i);
    await timers.settle();
    expect(writer.batches.map((b) => b.rows.length)).toEqual([5, 5]);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    await queue.close();
  });

  test("a transient failure keeps the rows and retries the same batch id; nothing is lost or doubled", async () => {

    const timers = createTestTimers();
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 3, retryInitialMs: 10, retryMaxMs: 20 });
    writer.fail(connectionLost);
    for (let i = 0; i < 7; i++) queue.enqueue(i);
    expect(await queue.flush()).toBe(false);
    expect(queue.stats()).toMatchObject({ failing: true, backlog: 7, written: 0 });
    expect(log.lines.some((l) => l.level === "warn" && l.line.includes("rows kept for retry"))).toBe(true);
    // More rows arrive while the database is down.
    for (let i = 7; i < 10; i++) queue.enqueue(i);
    writer.heal();
    await timers.advance(60);
    expect(await queue.flush()).toBe(true);
    const written = writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b);
    expect(written).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(new Set(writer.batches.map((b) => b.id)).size).toBe(writer.batches.length);
    expect(queue.stats()).toMatchObject({ failing: false, written: 10, backlog: 0 });
    expect(log.lines.some((l) => l.line.includes("Database writes recovered"))).toBe(true);
  });

  test("the backlog is bounded: the newest rows are refused and counted, with one error line", async () => {

    const timers = createTestTimers();
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 10, maxQueued: 25, retryInitialMs: 10 });
    writer.fail(connectionLost);
    let accepted = 0;
    for (let i = 0; i < 100; i++) if (queue.enqueue(i)) accepted++;
    expect(accepted).toBe(25);
    expect(queue.stats()).toMatchObject({ accepted: 25, dropped: 75 });
    const errors = log.lines.filter((l) => l.level === "error" && l.line.includes("dropping"));
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0].line).context).toMatchObject({ queue: "t", dropped: 1 });
    writer.heal();
    await timers.advance(40);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  test("a row the database refuses is isolated and dropped; the rest of its batch is written", async () => {

    const timers = createTestTimers();
    const writer = fakeWriter();
    const log = createMemoryLogger();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log, flushIntervalMs: 10, batchSize: 8 });
    writer.refuse((row) => row === 5);
    for (let i = 0; i < 8; i++) queue.enqueue(i);
    expect(await queue.flush()).toBe(true);
    expect(writer.batches.flatMap((b) => b.rows).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(queue.stats()).toMatchObject({ written: 7, rejected: 1, backlog: 0 });
    expect(log.lines.filter((l) => l.line.includes("refused a tracking row"))).toHaveLength(1);
  });

  test("close drains what is queued; with the database down it reports what was lost", async () => {

    const timers = createTestTimers();
    const writer = fakeWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 60_000 });
    for (let i = 0; i < 4; i++) queue.enqueue(i);
    await queue.close();
    expect(writer.batches.flatMap((b) => b.rows)).toEqual([0, 1, 2, 3]);
    expect(queue.enqueue(9)).toBe(false);

    const down = fakeWriter();
    const log = createMemoryLogger();
    const other = createWriteBehind<number>({ timers, name: "down", write: down.write, log, retryInitialMs: 10 });
    down.fail(connectionLost);
    other.enqueue(1);
    other.enqueue(2);
    const closing = other.close(100);
    await timers.advance(100);
    await closing;
    const lost = log.lines.find((l) => l.line.includes("Shutdown with unwritten tracking rows"));
    expect(JSON.parse(lost!.line).context).toEqual({ queue: "down", lost: 2 });
  });
});

/** A writer whose writes wait at a gate the test opens; counts writes in flight at once. */
function gatedWriter() {
  let open: () => void = () => {};
  let gate = new Promise<void>((r) => (open = r));
  const state = { inFlight: 0, maxInFlight: 0, written: [] as number[], failNext: false };
  return {
    state,
    release() {
      open();
      gate = new Promise<void>((r) => (open = r));
    },
    write: async (rows: readonly number[]) => {
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      await gate;
      state.inFlight--;
      if (state.failNext) {
        state.failNext = false;
        throw connectionLost;
      }
      state.written.push(...rows);
    },
  };
}

describe("back-pressure: the backlog is bounded in time", () => {
  test("within the bound no caller waits; past it a caller's promise settles only once its row is written", async () => {
    const timers = createTestTimers();
    const writer = gatedWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 1, batchSize: 1000, maxInFlight: 1, maxBacklogMs: 20 });
    queue.enqueue(0);
    expect(queue.backpressure()).toBeUndefined();
    await timers.advance(40);
    // Row 0 is in flight, held at the gate, and older than the bound.
    expect(queue.stats().backlogAgeMs).toBeGreaterThan(20);
    expect(queue.enqueue(1)).toBe(true);
    let settled = false;
    const wait = queue.backpressure()!;
    expect(wait).toBeInstanceOf(Promise);
    void wait.then(() => (settled = true));
    await timers.advance(5);
    expect(settled).toBe(false);
    writer.release(); // row 0 written; row 1 goes out next
    await timers.advance(10);
    expect(writer.state.written).toEqual([0]);
    expect(settled).toBe(false);
    writer.release();
    await wait;
    expect(writer.state.written).toEqual([0, 1]);
    await timers.settle();
    expect(queue.stats()).toMatchObject({ waited: 1, backlog: 0, backlogAgeMs: 0 });
    await queue.close();
  });

  test("waiting callers are answered when the write fails (waiting would not help), and nobody waits while it keeps failing", async () => {

    const timers = createTestTimers();
    const writer = gatedWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 1, batchSize: 1000, maxInFlight: 1, maxBacklogMs: 10, retryInitialMs: 60_000 });
    queue.enqueue(0);
    await timers.advance(30);
    queue.enqueue(1);
    const wait = queue.backpressure()!;
    writer.state.failNext = true;
    writer.release();
    await timers.settle();
    // Row 0's write failed: the queue is failing, row 1 was not even sent.
    expect(queue.stats().failing).toBe(true);
    queue.enqueue(2);
    expect(queue.backpressure()).toBeUndefined();
    writer.release();
    // Row 1 is not retried before the 60 s back-off: its caller is answered at the 2 s cap.
    let settled = false;
    void wait.then(() => (settled = true));
    await timers.advance(1_999);
    expect(settled).toBe(false);
    await timers.advance(1);
    expect(settled).toBe(true);
    writer.release();
    const closing = queue.close(100);
    await timers.advance(100);
    await closing;
  });

  test("flushes run in parallel up to maxInFlight", async () => {

    const timers = createTestTimers();
    const writer = gatedWriter();
    const queue = createWriteBehind<number>({ timers, name: "t", write: writer.write, log: createMemoryLogger(), flushIntervalMs: 60_000, batchSize: 2, maxInFlight: 3 });
    for (let i = 0; i < 10; i++) queue.enqueue(i);
    await timers.settle();
    expect(writer.state.inFlight).toBe(3);
    const flushed = queue.flush();
    for (let i = 0; i < 5; i++) {
      writer.release();
      await timers.settle();
    }
    expect(await flushed).toBe(true);
    expect(writer.state.maxInFlight).toBe(3);
    expect(writer.state.written.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await queue.close();
  });
});

test("close never waits past its deadline, even for a write that hangs", async () => {

  const timers = createTestTimers();
  const log = createMemoryLogger();
  const queue = createWriteBehind<number>({ timers, name: "hang", write: () => new Promise<void>(() => {}), log, flushIntervalMs: 1 });
  queue.enqueue(1);
  await timers.advance(1);
  let closed = false;
  const closing = queue.close(200).then(() => (closed = true));
  await timers.advance(199);
  expect(closed).toBe(false);
  await timers.advance(1);
  await closing;
  expect(closed).toBe(true);
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
        { email: "a@x.fr", sid: "s1", genre: "house", score: 2, at },
        { email: "a@x.fr", sid: "s2", genre: "house", score: 3, at: later },
        { email: "a@x.fr", sid: null, genre: "r&b", score: 1, at },
      ],
      crypto.randomUUID(),
    );
    const again = crypto.randomUUID();
    await upsertPreferenceBatch(ctx.deps.db, [{ email: "a@x.fr", sid: "s1", genre: "house", score: 10, at: later }], again);
    await upsertPreferenceBatch(ctx.deps.db, [{ email: "a@x.fr", sid: "s1", genre: "house", score: 10, at: later }], again);
    const prefs = await ctx.deps.database.query<{ genre: string; score: number; first_seen_at: unknown; last_seen_at: unknown }>(sql`select genre, score, first_seen_at, last_seen_at from genre_preferences order by genre`);
    expect(prefs.map((p) => [p.genre, p.score])).toEqual([
      ["house", 15],
      ["r&b", 1],
    ]);
    expect(new Date(prefs[0].first_seen_at as string).toISOString()).toBe(at);
    expect(new Date(prefs[0].last_seen_at as string).toISOString()).toBe(later);
    // Per browser session too (increments without a session id count only per email), batch ids applied once.
    const sessions = await ctx.deps.database.query<{ session_id: string; genre: string; score: number }>(sql`select session_id, genre, score from session_genre_preferences order by session_id, genre`);
    expect(sessions.map((r) => [r.session_id, r.genre, r.score])).toEqual([
      ["s1", "house", 12],
      ["s2", "house", 3],
    ]);
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
