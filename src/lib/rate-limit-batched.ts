// A rate-limiter front for the high-traffic tracking scopes: decisions are taken in memory, with
// no database round trip per request, and the counts reach the same Postgres counters as
// lib/rate-limit.ts (same table, keys, fixed window from the first hit, blocked hits counted)
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
// Auth and submissions keep the exact per-request limiter (lib/rate-limit.ts).

import { sql } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import type { Logger } from "./logger.ts";
import { dbErrorSummary } from "./db/errors.ts";
import { rateLimitKey, type RateLimitRule } from "./rate-limit.ts";
import { systemTimers, type TimerHandle, type Timers } from "./timers.ts";

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
  /** The counter key: hex HMAC-SHA256 of the scope and parts joined by "|" (as lib/rate-limit.ts). */
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

/** Builds the in-memory front; its timer flushes in the background until `close()`. */
export function createBatchedLimiter(options: BatchedLimiterOptions): BatchedLimiter {
  const interval = options.flushIntervalMs ?? 100;
  const coldSyncMs = options.coldSyncMs ?? 3_000;
  const maxKeys = options.maxKeys ?? 500_000;
  const chunkSize = options.chunkSize ?? 2_000;
  const states = new Map<string, KeyState>();
  /** Keys to sync at the next tick (warm, a tenth of the limit unsynced, or handed back after a failure). */
  const urgent = new Set<KeyState>();
  /** Cold keys in the order their first unsynced hit arrived; stale entries are skipped. */
  let cold: { state: KeyState; since: number }[] = [];
  let coldHead = 0;
  const hasWork = () => urgent.size > 0 || coldHead < cold.length;
  const counters = { flushes: 0, failedFlushes: 0 };
  let degraded = false;
  let closed = false;
  let flushing: Promise<boolean> | undefined;
  let lastSweep = 0;
  let lastFailureLog = 0;
  let lastFullLog = 0;
  let backoff = 0;

  const keyFor = (rule: RateLimitRule, parts: readonly string[]) => rateLimitKey(options.secret, rule, parts);
  const timers = options.timers ?? systemTimers;

  let timer: TimerHandle | undefined;
  function schedule(delay: number): void {
    if (closed || timer) return;
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        void sync(false).finally(() => {
          if (hasWork()) schedule(degraded ? backoff : interval);
        });
      },
      delay,
      true,
    );
  }

  function sweep(now: number): void {
    lastSweep = now;
    for (const [key, state] of states) {
      if (state.resetAt <= now && state.pending === 0 && state.inFlight === 0) states.delete(key);
    }
  }

  /** Upserts one chunk; returns each key's global count and window end (epoch ms, cheap to parse). */
  async function writeChunk(rows: FlushRow[], nowIso: string): Promise<{ key_hash: string; count: number; reset_ms: number }[]> {
    // Sorted keys: concurrent flushes from several instances lock rows in the same order.
    rows.sort((a, b) => (a.scope === b.scope ? (a.key_hash < b.key_hash ? -1 : 1) : a.scope < b.scope ? -1 : 1));
    const result = await options.db.execute(sql`
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

  async function runFlush(all: boolean): Promise<boolean> {
    const nowMs = options.now().getTime();
    if (nowMs - lastSweep >= SWEEP_EVERY_MS) sweep(nowMs);
    if (!hasWork()) return true;
    const batch: { state: KeyState; delta: number; generation: number; since: number }[] = [];
    const take = (state: KeyState) => {
      if (state.pending === 0) return;
      batch.push({ state, delta: state.pending, generation: state.generation, since: state.pendingSince });
      state.inFlight += state.pending;
      state.pending = 0;
    };
    for (const state of urgent) take(state);
    urgent.clear();
    // Cold keys whose oldest unsynced hit is old enough (all of them for an explicit flush).
    while (coldHead < cold.length) {
      const entry = cold[coldHead];
      if (!all && nowMs - entry.since < coldSyncMs) break;
      coldHead++;
      if (entry.state.pendingSince === entry.since) take(entry.state);
    }
    if (coldHead > 1024 && coldHead * 2 > cold.length) {
      cold = cold.slice(coldHead);
      coldHead = 0;
    }
    if (batch.length === 0) return !degraded;
    const nowIso = new Date(nowMs).toISOString();
    let ok = true;
    for (let i = 0; i < batch.length; i += chunkSize) {
      const chunk = batch.slice(i, i + chunkSize);
      // The key hash alone identifies a row of the chunk: the scope is part of the HMAC input.
      const byKey = new Map(chunk.map((item) => [item.state.keyHash, item]));
      try {
        const rows = await writeChunk(
          chunk.map(({ state, delta, since }) => ({
            scope: state.rule.scope,
            key_hash: state.keyHash,
            window_seconds: state.rule.windowSeconds,
            delta,
            reset_at: new Date(since + state.rule.windowSeconds * 1000).toISOString(),
          })),
          nowIso,
        );
        const answeredAt = options.now().getTime();
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
      } catch (error) {
        ok = false;
        // Hand the hits back: the next flush writes them (a lost acknowledgement may count them
        // twice, which only errs on the side of limiting).
        for (const { state, delta, generation, since } of chunk) {
          if (state.generation !== generation) continue;
          state.inFlight -= delta;
          state.pendingSince = state.pending === 0 ? since : Math.min(state.pendingSince, since);
          state.pending += delta;
          urgent.add(state);
        }
        const now = timers.now();
        if (now - lastFailureLog >= LOG_EVERY_MS) {
          lastFailureLog = now;
          options.log.warn("rate-limit", options.localFallback ? "Tracking limiter could not sync its counters; deciding on local counts" : "Tracking limiter could not sync its counters; its decisions are unavailable until it can", { keys: chunk.length, error: dbErrorSummary(error) });
        }
      }
    }
    counters.flushes++;
    if (!ok) {
      counters.failedFlushes++;
      backoff = Math.min(2_000, backoff === 0 ? interval : backoff * 2);
    } else {
      if (degraded) options.log.info("rate-limit", "Tracking limiter counters in sync again", { keys: states.size });
      backoff = 0;
    }
    degraded = !ok;
    return ok;
  }

  function sync(all: boolean): Promise<boolean> {
    // One sync at a time; a caller arriving during one waits for it and then runs its own.
    const previous = flushing ?? Promise.resolve(true);
    const run = () => runFlush(all);
    const next = previous.then(run, run);
    flushing = next;
    void next.finally(() => {
      if (flushing === next) flushing = undefined;
    });
    return next;
  }
  const flush = () => sync(true);

  return {
    keyFor,
    hit(rule, parts, { failOpen }) {
      // Keyed by the parts in memory, so the HMAC is computed once per key, not per hit.
      const key = `${rule.scope}|${rule.windowSeconds}|${parts.join("|")}`;
      const now = options.now().getTime();
      let state = states.get(key);
      if (!state) {
        const keyHash = keyFor(rule, parts);
        if (states.size >= maxKeys) {
          if (now - lastSweep >= 1_000) sweep(now);
          if (states.size >= maxKeys) {
            if (now - lastFullLog >= LOG_EVERY_MS) {
              lastFullLog = now;
              options.log.warn("rate-limit", "Tracking limiter is full; new keys are unavailable", { keys: states.size, scope: rule.scope });
            }
            return { status: "unavailable", allowed: failOpen, keyHash };
          }
        }
        state = { rule, keyHash, known: 0, inFlight: 0, pending: 0, pendingSince: now, resetAt: now + rule.windowSeconds * 1000, generation: 0 };
        states.set(key, state);
      } else if (now >= state.resetAt) {
        // The window is over: a new one starts at this hit. Unwritten hits of the old one no longer matter.
        state.known = 0;
        state.inFlight = 0;
        state.pending = 0;
        state.resetAt = now + rule.windowSeconds * 1000;
        state.generation++;
      }
      if (state.pending === 0) {
        state.pendingSince = now;
        cold.push({ state, since: now });
      }
      state.pending++;
      const count = state.known + state.inFlight + state.pending;
      if (count >= rule.limit / 2 || state.pending >= Math.max(1, Math.floor(rule.limit / 10))) urgent.add(state);
      schedule(degraded ? backoff : interval);
      if (degraded && !options.localFallback) return { status: "unavailable", allowed: failOpen, keyHash: state.keyHash };
      const allowed = count <= rule.limit;
      const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
      return { status: allowed ? "allowed" : "blocked", allowed, count, retryAfter, keyHash: state.keyHash };
    },
    flush,
    flushDue: () => sync(false),
    resume() {
      if (closed || !degraded) return;
      // Recording must not wait for the outage's counts to be reconciled: until the next sync
      // answers, decisions rest on the local counts (a hit of the outage is never forgotten).
      degraded = false;
      backoff = 0;
      timers.clearTimeout(timer);
      timer = undefined;
      if (hasWork()) schedule(0);
      options.log.info("rate-limit", "Tracking limiter resumes on local counts; the outage's counts are written in the background", { keys: states.size });
    },
    async close() {
      timers.clearTimeout(timer);
      timer = undefined;
      closed = true;
      // Counts are best effort at shutdown: never wait more than 2 s for them.
      let giveUp: TimerHandle | undefined;
      await Promise.race([flush(), new Promise<void>((resolve) => (giveUp = timers.setTimeout(resolve, 2_000)))]);
      timers.clearTimeout(giveUp);
    },
    stats: () => {
      let pendingHits = 0;
      for (const state of states.values()) pendingHits += state.pending;
      return { keys: states.size, pendingHits, ...counters, degraded };
    },
  };
}
