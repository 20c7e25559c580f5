// A rate-limiter front for the high-traffic tracking scopes: decisions are taken in memory, with
// no database round trip per request, and the counts reach the same Postgres counters as
// lib/rate-limit/fixed-window.ts (same table, keys, fixed window from the first hit, blocked hits counted)
// through batched atomic upserts. Each upsert returns the key's global count and reset time, so
// instances learn each other's hits.
//
// When a key is synced (checked every `flushIntervalMs`, 100 ms):
//   - warm keys, whose count has reached half their limit: at every tick;
//   - keys with a tenth of their limit unsynced: at the next tick;
//   - every other key: once its oldest unsynced hit is `coldSyncMs` (3 s) old.
// Most keys are cold (a visitor sends a few beacons a minute), so a visitor's hits within a few
// seconds share one upsert; a counter upsert per hit would cost as much as the interaction rows.
// The wait of cold keys does not weaken the limit: what a cold key may hide is bounded by count
// (a tenth of the limit), not by time; it only delays when the table shows the hits.
//
// Precision: one instance alone is exact (the decision counts every local hit at once). Across
// N instances a key below half its limit may hide at most a tenth of the limit per instance,
// so nothing is over-admitted while N ≤ 5; past half the limit every instance syncs each tick
// and the over-admission is the hits the other instances take in about two ticks (~200 ms).
// Once a key's count (local or global) passes the limit it stays blocked until its window
// resets, because counts only grow within a window. While the database is unreachable (the last
// sync failed) the limiter cannot decide: every hit is `unavailable` (each caller's failOpen
// applies), unless `localFallback` is set, in which case each instance keeps enforcing the limits
// on its own counts. Hits are counted either way and written once the database is back. Keys are held in memory by their parts
// (raw IPs and session ids never leave the process; the table only sees the HMAC).
// Auth and submissions keep the exact per-request limiter (lib/rate-limit/fixed-window.ts).

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { rateLimitKey, type RateLimitRule } from "./fixed-window.ts";
import { systemTimers, type TimerHandle, type Timers } from "../timers.ts";

/** The decision for one hit; `unavailable` when the limiter has no room to track a new key. */
export type BatchedLimitDecision =
  | { status: "allowed" | "blocked"; allowed: boolean; count: number; retryAfter: number; keyHash: string }
  | { status: "unavailable"; allowed: boolean; keyHash: string };

export interface BatchedLimiterOptions {
  db: Db;
  secret: string;
  log: Logger;
  now: () => Date;
  /** Milliseconds between sync ticks; warm keys are synced at every tick (default 100). */
  flushIntervalMs?: number;
  /** Longest a cold key's hits stay unsynced (default 3,000 ms). */
  coldSyncMs?: number;
  /** Keys tracked in memory at most; past it new keys are `unavailable` (default 500,000). */
  maxKeys?: number;
  /** Keys per upsert statement (default 2,000). */
  chunkSize?: number;
  /** Decide on local counts while the database is unreachable instead of answering `unavailable` (default false). */
  localFallback?: boolean;
  /** Timers of the sync ticks and the log throttling (default: the real ones; tests pass a test clock). */
  timers?: Timers;
}

export interface BatchedLimiterStats {
  keys: number;
  /** Hits counted locally and not yet written. */
  pendingHits: number;
  flushes: number;
  failedFlushes: number;
  /** True while the last flush failed (decisions are `unavailable`, or local-only with localFallback). */
  degraded: boolean;
}

export interface BatchedLimiter {
  /** Counts one hit for `parts` under `rule` and decides at once, without waiting for the database. */
  hit(rule: RateLimitRule, parts: readonly string[], options: { failOpen: boolean }): BatchedLimitDecision;
  /** The counter key: hex HMAC-SHA256 of the scope and parts joined by "|" (as lib/rate-limit/fixed-window.ts). */
  keyFor(rule: RateLimitRule, parts: readonly string[]): string;
  /** Writes every pending count now (warm or cold) and learns the global counts back. */
  flush(): Promise<boolean>;
  /** Writes only the counts that are due (what the timer runs every tick). */
  flushDue(): Promise<boolean>;
  /**
   * The database is reachable again (its breaker closed): decisions resume at once on the counts
   * held here, and the counts of the outage are written in the background. Until this is called a
   * failed sync leaves the limiter degraded.
   */
  resume(): void;
  /** Stops the timer after a last flush. */
  close(): Promise<void>;
  stats(): BatchedLimiterStats;
}

interface KeyState {
  rule: RateLimitRule;
  keyHash: string;
  /** Global count as of the last flush that returned this window (includes our flushed hits). */
  known: number;
  /** Hits being written by the flush in progress. */
  inFlight: number;
  /** Hits counted here since the last flush started. */
  pending: number;
  /** When the first pending hit was counted: the window start if the database has none. */
  pendingSince: number;
  /** End of the current window (ms); a local estimate until the database answers. */
  resetAt: number;
  /** Bumped when the window rolls over, so a late flush answer for the old window is ignored. */
  generation: number;
}

interface FlushRow {
  scope: string;
  key_hash: string;
  window_seconds: number;
  delta: number;
  reset_at: string;
}

const SWEEP_EVERY_MS = 10_000;
const LOG_EVERY_MS = 10_000;

/** One key's hits taken by a flush, with what is needed to hand them back or ignore a stale answer. */
interface BatchItem {
  state: KeyState;
  delta: number;
  generation: number;
  since: number;
}

/** The limiter's settings and mutable state, shared by the steps below. */
interface Core {
  options: BatchedLimiterOptions;
  timers: Timers;
  interval: number;
  coldSyncMs: number;
  maxKeys: number;
  chunkSize: number;
  states: Map<string, KeyState>;
  /** Keys to sync at the next tick (warm, a tenth of the limit unsynced, or handed back after a failure). */
  urgent: Set<KeyState>;
  /** Cold keys in the order their first unsynced hit arrived; stale entries are skipped. */
  cold: { state: KeyState; since: number }[];
  coldHead: number;
  counters: { flushes: number; failedFlushes: number };
  degraded: boolean;
  closed: boolean;
  flushing: Promise<boolean> | undefined;
  timer: TimerHandle | undefined;
  lastSweep: number;
  lastFailureLog: number;
  lastFullLog: number;
  backoff: number;
}

/** Builds the in-memory front; its timer flushes in the background until `close()`. */
export function createBatchedLimiter(options: BatchedLimiterOptions): BatchedLimiter {
  const core = createCore(options);
  return {
    keyFor: (rule, parts) => rateLimitKey(options.secret, rule, parts),
    hit: (rule, parts, { failOpen }) => decideHit(core, rule, parts, failOpen),
    flush: () => sync(core, true),
    flushDue: () => sync(core, false),
    resume: () => resumeSync(core),
    close: () => closeLimiter(core),
    stats: () => limiterStats(core),
  };
}

/** Resolves the defaults into a fresh, empty state. */
function createCore(options: BatchedLimiterOptions): Core {
  return {
    options,
    timers: options.timers ?? systemTimers,
    interval: options.flushIntervalMs ?? 100,
    coldSyncMs: options.coldSyncMs ?? 3_000,
    maxKeys: options.maxKeys ?? 500_000,
    chunkSize: options.chunkSize ?? 2_000,
    states: new Map(),
    urgent: new Set(),
    cold: [],
    coldHead: 0,
    counters: { flushes: 0, failedFlushes: 0 },
    degraded: false,
    closed: false,
    flushing: undefined,
    timer: undefined,
    lastSweep: 0,
    lastFailureLog: 0,
    lastFullLog: 0,
    backoff: 0,
  };
}

/** True when some key waits for a sync. */
function hasWork(core: Core): boolean {
  return core.urgent.size > 0 || core.coldHead < core.cold.length;
}

/** The wait before the next tick: the backoff while degraded, the interval otherwise. */
function tickDelay(core: Core): number {
  return core.degraded ? core.backoff : core.interval;
}

/** Arms the next tick unless one is armed; a tick re-arms itself while keys wait. */
function schedule(core: Core, delay: number): void {
  if (core.closed || core.timer) return;
  core.timer = core.timers.setTimeout(
    () => {
      core.timer = undefined;
      void sync(core, false).finally(() => {
        if (hasWork(core)) schedule(core, tickDelay(core));
      });
    },
    delay,
    true,
  );
}

/** Forgets the keys whose window is over and that have nothing left to write. */
function sweep(core: Core, now: number): void {
  core.lastSweep = now;
  for (const [key, state] of core.states) {
    if (state.resetAt <= now && state.pending === 0 && state.inFlight === 0) core.states.delete(key);
  }
}

/** Moves a key's pending hits in flight and adds them to the batch. */
function takePending(state: KeyState, batch: BatchItem[]): void {
  if (state.pending === 0) return;
  batch.push({ state, delta: state.pending, generation: state.generation, since: state.pendingSince });
  state.inFlight += state.pending;
  state.pending = 0;
}

/** Takes every urgent key and the cold keys whose oldest unsynced hit is old enough (all of them when `all`). */
function takeDue(core: Core, nowMs: number, all: boolean): BatchItem[] {
  const batch: BatchItem[] = [];
  for (const state of core.urgent) takePending(state, batch);
  core.urgent.clear();
  while (core.coldHead < core.cold.length) {
    const entry = core.cold[core.coldHead];
    if (!all && nowMs - entry.since < core.coldSyncMs) break;
    core.coldHead++;
    if (entry.state.pendingSince === entry.since) takePending(entry.state, batch);
  }
  compactCold(core);
  return batch;
}

/** Drops the consumed head of the cold list once it is most of the list. */
function compactCold(core: Core): void {
  if (core.coldHead > 1024 && core.coldHead * 2 > core.cold.length) {
    core.cold = core.cold.slice(core.coldHead);
    core.coldHead = 0;
  }
}

/** The counter rows of a chunk; a key new to the table starts its window at its first unsynced hit. */
function counterRows(chunk: BatchItem[]): FlushRow[] {
  return chunk.map(({ state, delta, since }) => ({
    scope: state.rule.scope,
    key_hash: state.keyHash,
    window_seconds: state.rule.windowSeconds,
    delta,
    reset_at: new Date(since + state.rule.windowSeconds * 1000).toISOString(),
  }));
}

/** Upserts one chunk; returns each key's global count and window end (epoch ms, cheap to parse). */
async function writeChunk(db: Db, rows: FlushRow[], nowIso: string): Promise<{ key_hash: string; count: number; reset_ms: number }[]> {
  // Sorted keys: concurrent flushes from several instances lock rows in the same order.
  rows.sort((a, b) => (a.scope === b.scope ? (a.key_hash < b.key_hash ? -1 : 1) : a.scope < b.scope ? -1 : 1));
  const result = await db.execute(sql`
    insert into rate_limit_counters (scope, key_hash, window_seconds, count, reset_at, updated_at)
    select x.scope, x.key_hash, x.window_seconds, x.delta, x.reset_at, ${nowIso}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(scope text, key_hash text, window_seconds int, delta int, reset_at timestamptz)
    on conflict (scope, key_hash, window_seconds) do update set
      count = case when rate_limit_counters.reset_at <= excluded.updated_at then excluded.count else rate_limit_counters.count + excluded.count end,
      reset_at = case when rate_limit_counters.reset_at <= excluded.updated_at then excluded.reset_at else rate_limit_counters.reset_at end,
      updated_at = excluded.updated_at
    returning key_hash, count, (extract(epoch from reset_at) * 1000)::float8 as reset_ms`);
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as never;
}

/** Learns the global counts and window ends the database answered; answers for an old window are ignored. */
function learnCounts(chunk: BatchItem[], rows: { key_hash: string; count: number; reset_ms: number }[], answeredAt: number): void {
  // The key hash alone identifies a row of the chunk: the scope is part of the HMAC input.
  const byKey = new Map(chunk.map((item) => [item.state.keyHash, item]));
  for (const row of rows) {
    const item = byKey.get(row.key_hash);
    if (!item) continue;
    const { state } = item;
    if (state.generation !== item.generation) continue;
    state.inFlight -= item.delta;
    const resetAt = Number(row.reset_ms);
    if (resetAt > answeredAt) {
      state.known = Number(row.count);
      state.resetAt = resetAt;
    }
  }
}

/** Hands a failed chunk's hits back so the next flush writes them. */
function handBack(core: Core, chunk: BatchItem[]): void {
  // A lost acknowledgement may count them twice, which only errs on the side of limiting.
  for (const { state, delta, generation, since } of chunk) {
    if (state.generation !== generation) continue;
    state.inFlight -= delta;
    state.pendingSince = state.pending === 0 ? since : Math.min(state.pendingSince, since);
    state.pending += delta;
    core.urgent.add(state);
  }
}

/** Warns that a sync failed, at most once every LOG_EVERY_MS. */
function logSyncFailure(core: Core, keys: number, error: unknown): void {
  const now = core.timers.now();
  if (now - core.lastFailureLog < LOG_EVERY_MS) return;
  core.lastFailureLog = now;
  const message = core.options.localFallback ? "Tracking limiter could not sync its counters; deciding on local counts" : "Tracking limiter could not sync its counters; its decisions are unavailable until it can";
  core.options.log.warn("rate-limit", message, { keys, error: dbErrorSummary(error) });
}

/** Writes one chunk and learns its answer; false (hits handed back) when the database failed. */
async function flushChunk(core: Core, chunk: BatchItem[], nowIso: string): Promise<boolean> {
  try {
    const rows = await writeChunk(core.options.db, counterRows(chunk), nowIso);
    learnCounts(chunk, rows, core.options.now().getTime());
    return true;
  } catch (error) {
    handBack(core, chunk);
    logSyncFailure(core, chunk.length, error);
    return false;
  }
}

/** Counts a flush and enters or leaves the degraded state, doubling the retry backoff up to 2 s. */
function recordFlush(core: Core, ok: boolean): boolean {
  core.counters.flushes++;
  if (!ok) {
    core.counters.failedFlushes++;
    core.backoff = Math.min(2_000, core.backoff === 0 ? core.interval : core.backoff * 2);
  } else {
    if (core.degraded) core.options.log.info("rate-limit", "Tracking limiter counters in sync again", { keys: core.states.size });
    core.backoff = 0;
  }
  core.degraded = !ok;
  return ok;
}

/** One sync: sweeps now and then, takes the due keys and writes them chunk by chunk. */
async function runFlush(core: Core, all: boolean): Promise<boolean> {
  const nowMs = core.options.now().getTime();
  if (nowMs - core.lastSweep >= SWEEP_EVERY_MS) sweep(core, nowMs);
  if (!hasWork(core)) return true;
  const batch = takeDue(core, nowMs, all);
  if (batch.length === 0) return !core.degraded;
  const nowIso = new Date(nowMs).toISOString();
  let ok = true;
  for (let i = 0; i < batch.length; i += core.chunkSize) {
    if (!(await flushChunk(core, batch.slice(i, i + core.chunkSize), nowIso))) ok = false;
  }
  return recordFlush(core, ok);
}

/** Runs a sync after the one in progress, if any: one sync at a time. */
function sync(core: Core, all: boolean): Promise<boolean> {
  const previous = core.flushing ?? Promise.resolve(true);
  const run = () => runFlush(core, all);
  const next = previous.then(run, run);
  core.flushing = next;
  void next.finally(() => {
    if (core.flushing === next) core.flushing = undefined;
  });
  return next;
}

/** Whether a new key fits, sweeping at most once a second when full; a full limiter is logged. */
function hasRoom(core: Core, scope: string, now: number): boolean {
  if (core.states.size < core.maxKeys) return true;
  if (now - core.lastSweep >= 1_000) sweep(core, now);
  if (core.states.size < core.maxKeys) return true;
  if (now - core.lastFullLog >= LOG_EVERY_MS) {
    core.lastFullLog = now;
    core.options.log.warn("rate-limit", "Tracking limiter is full; new keys are unavailable", { keys: core.states.size, scope });
  }
  return false;
}

/** A new key's state: its window starts at this hit (a local estimate until the database answers). */
function newKeyState(rule: RateLimitRule, keyHash: string, now: number): KeyState {
  return { rule, keyHash, known: 0, inFlight: 0, pending: 0, pendingSince: now, resetAt: now + rule.windowSeconds * 1000, generation: 0 };
}

/** Starts a new window at this hit: unwritten hits of the old one no longer matter. */
function restartWindow(state: KeyState, rule: RateLimitRule, now: number): void {
  state.known = 0;
  state.inFlight = 0;
  state.pending = 0;
  state.resetAt = now + rule.windowSeconds * 1000;
  state.generation++;
}

/** Counts one hit and queues its key (cold on its first unsynced hit, urgent once warm); returns the count to decide on. */
function countHit(core: Core, state: KeyState, rule: RateLimitRule, now: number): number {
  if (state.pending === 0) {
    state.pendingSince = now;
    core.cold.push({ state, since: now });
  }
  state.pending++;
  const count = state.known + state.inFlight + state.pending;
  if (count >= rule.limit / 2 || state.pending >= Math.max(1, Math.floor(rule.limit / 10))) core.urgent.add(state);
  return count;
}

/** The allowed or blocked decision on a count, with the seconds until the window resets. */
function decide(state: KeyState, rule: RateLimitRule, count: number, now: number): BatchedLimitDecision {
  const allowed = count <= rule.limit;
  const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
  return { status: allowed ? "allowed" : "blocked", allowed, count, retryAfter, keyHash: state.keyHash };
}

/** Counts one hit for `parts` under `rule` and decides at once (`BatchedLimiter.hit`). */
function decideHit(core: Core, rule: RateLimitRule, parts: readonly string[], failOpen: boolean): BatchedLimitDecision {
  // Keyed by the parts in memory, so the HMAC is computed once per key, not per hit.
  const key = `${rule.scope}|${rule.windowSeconds}|${parts.join("|")}`;
  const now = core.options.now().getTime();
  let state = core.states.get(key);
  if (!state) {
    const keyHash = rateLimitKey(core.options.secret, rule, parts);
    if (!hasRoom(core, rule.scope, now)) return { status: "unavailable", allowed: failOpen, keyHash };
    state = newKeyState(rule, keyHash, now);
    core.states.set(key, state);
  } else if (now >= state.resetAt) {
    restartWindow(state, rule, now);
  }
  const count = countHit(core, state, rule, now);
  schedule(core, tickDelay(core));
  if (core.degraded && !core.options.localFallback) return { status: "unavailable", allowed: failOpen, keyHash: state.keyHash };
  return decide(state, rule, count, now);
}

/** Decisions resume on the local counts; the outage's counts are written in the background (`BatchedLimiter.resume`). */
function resumeSync(core: Core): void {
  if (core.closed || !core.degraded) return;
  // Recording must not wait for the outage's counts to be reconciled: until the next sync
  // answers, decisions rest on the local counts (a hit of the outage is never forgotten).
  core.degraded = false;
  core.backoff = 0;
  core.timers.clearTimeout(core.timer);
  core.timer = undefined;
  if (hasWork(core)) schedule(core, 0);
  core.options.log.info("rate-limit", "Tracking limiter resumes on local counts; the outage's counts are written in the background", { keys: core.states.size });
}

/** Stops the timer after a last flush, waiting 2 s at most (`BatchedLimiter.close`). */
async function closeLimiter(core: Core): Promise<void> {
  core.timers.clearTimeout(core.timer);
  core.timer = undefined;
  core.closed = true;
  // Counts are best effort at shutdown: never wait more than 2 s for them.
  let giveUp: TimerHandle | undefined;
  await Promise.race([sync(core, true), new Promise<void>((resolve) => (giveUp = core.timers.setTimeout(resolve, 2_000)))]);
  core.timers.clearTimeout(giveUp);
}

/** Keys held, hits not yet written and flush counters (`BatchedLimiter.stats`). */
function limiterStats(core: Core): BatchedLimiterStats {
  let pendingHits = 0;
  for (const state of core.states.values()) pendingHits += state.pending;
  return { keys: core.states.size, pendingHits, ...core.counters, degraded: core.degraded };
}
