// A rate-limiter front for the high-traffic tracking scopes: decisions are taken in memory, with
// no database round trip per request, and the counts reach the same Postgres counters as
// lib/rate-limit.ts (same table, keys, fixed window from the first hit, blocked hits counted)
// through one batched atomic upsert per flush (every ~100 ms). Each flush returns the global
// count and reset time of every key it touched, so instances learn each other's hits.
//
// Precision: one instance alone is exact (the decision counts every local hit at once). Across
// N instances a key can be over-admitted by the hits the other instances take before their next
// flush reaches this one: at most about (rate × 2 flush intervals) per instance, and never more
// than (N − 1) × limit in a window. Once a key's count (local or global) passes the limit it
// stays blocked until its window resets, because counts only grow within a window. While the
// database is unreachable each instance keeps enforcing the limits on its own counts.
// Auth and submissions keep the exact per-request limiter (lib/rate-limit.ts).

import { sql } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import type { Logger } from "./logger.ts";
import { hmacHex } from "./crypto.ts";
import { dbErrorSummary } from "./db/errors.ts";
import type { RateLimitRule } from "./rate-limit.ts";

/** The decision for one hit; `unavailable` when the limiter has no room to track a new key. */
export type BatchedLimitDecision =
  | { status: "allowed" | "blocked"; allowed: boolean; count: number; retryAfter: number; keyHash: string }
  | { status: "unavailable"; allowed: boolean; keyHash: string };

export interface BatchedLimiterOptions {
  db: Db;
  secret: string;
  log: Logger;
  now: () => Date;
  /** Milliseconds between flushes of the pending counts (default 100). */
  flushIntervalMs?: number;
  /** Keys tracked in memory at most; past it new keys are `unavailable` (default 500,000). */
  maxKeys?: number;
  /** Keys per upsert statement (default 2,000). */
  chunkSize?: number;
}

export interface BatchedLimiterStats {
  keys: number;
  /** Hits counted locally and not yet written. */
  pendingHits: number;
  flushes: number;
  failedFlushes: number;
  /** True while the last flush failed (decisions are local-only meanwhile). */
  degraded: boolean;
}

export interface BatchedLimiter {
  /** Counts one hit for `parts` under `rule` and decides at once, without waiting for the database. */
  hit(rule: RateLimitRule, parts: readonly string[], options: { failOpen: boolean }): BatchedLimitDecision;
  /** The counter key: hex HMAC-SHA256 of the scope and parts joined by "|" (as lib/rate-limit.ts). */
  keyFor(rule: RateLimitRule, parts: readonly string[]): string;
  /** Writes the pending counts now and learns the global counts back. */
  flush(): Promise<boolean>;
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
  const maxKeys = options.maxKeys ?? 500_000;
  const chunkSize = options.chunkSize ?? 2_000;
  const states = new Map<string, KeyState>();
  const dirty = new Set<KeyState>();
  const counters = { flushes: 0, failedFlushes: 0 };
  let degraded = false;
  let closed = false;
  let flushing: Promise<boolean> | undefined;
  let lastSweep = 0;
  let lastFailureLog = 0;
  let lastFullLog = 0;
  let backoff = 0;

  const keyFor = (rule: RateLimitRule, parts: readonly string[]) => hmacHex(options.secret, [rule.scope, ...parts].join("|"));
  const mapKey = (scope: string, keyHash: string, windowSeconds: number) => `${scope}|${windowSeconds}|${keyHash}`;

  let timer: ReturnType<typeof setTimeout> | undefined;
  function schedule(delay: number): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush().finally(() => {
        if (dirty.size > 0) schedule(degraded ? backoff : interval);
      });
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  }

  function sweep(now: number): void {
    lastSweep = now;
    for (const [key, state] of states) {
      if (state.resetAt <= now && state.pending === 0 && state.inFlight === 0) states.delete(key);
    }
  }

  async function writeChunk(rows: FlushRow[], nowIso: string): Promise<{ scope: string; key_hash: string; window_seconds: number; count: number; reset_at: string | Date }[]> {
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
      returning scope, key_hash, window_seconds, count, reset_at`);
    return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as never;
  }

  async function runFlush(): Promise<boolean> {
    const nowMs = options.now().getTime();
    if (nowMs - lastSweep >= SWEEP_EVERY_MS) sweep(nowMs);
    if (dirty.size === 0) return true;
    const batch: { state: KeyState; delta: number; generation: number; since: number }[] = [];
    for (const state of dirty) {
      if (state.pending === 0) continue;
      batch.push({ state, delta: state.pending, generation: state.generation, since: state.pendingSince });
      state.inFlight += state.pending;
      state.pending = 0;
    }
    dirty.clear();
    const nowIso = new Date(nowMs).toISOString();
    let ok = true;
    for (let i = 0; i < batch.length; i += chunkSize) {
      const chunk = batch.slice(i, i + chunkSize);
      const byKey = new Map(chunk.map((item) => [mapKey(item.state.rule.scope, item.state.keyHash, item.state.rule.windowSeconds), item]));
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
          const item = byKey.get(mapKey(row.scope, row.key_hash, Number(row.window_seconds)));
          if (!item) continue;
          const { state } = item;
          if (state.generation !== item.generation) continue;
          state.inFlight -= item.delta;
          const resetAt = new Date(row.reset_at).getTime();
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
          dirty.add(state);
        }
        const now = Date.now();
        if (now - lastFailureLog >= LOG_EVERY_MS) {
          lastFailureLog = now;
          options.log.warn("rate-limit", "Tracking limiter could not sync its counters; deciding on local counts", { keys: chunk.length, error: dbErrorSummary(error) });
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

  function flush(): Promise<boolean> {
    // One flush at a time; a caller arriving during one waits for it and then runs its own.
    const previous = flushing ?? Promise.resolve(true);
    const next = previous.then(runFlush, runFlush);
    flushing = next;
    void next.finally(() => {
      if (flushing === next) flushing = undefined;
    });
    return next;
  }

  return {
    keyFor,
    hit(rule, parts, { failOpen }) {
      const keyHash = keyFor(rule, parts);
      const key = mapKey(rule.scope, keyHash, rule.windowSeconds);
      const now = options.now().getTime();
      let state = states.get(key);
      if (!state) {
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
      if (state.pending === 0) state.pendingSince = now;
      state.pending++;
      dirty.add(state);
      schedule(degraded ? backoff : interval);
      const count = state.known + state.inFlight + state.pending;
      const allowed = count <= rule.limit;
      const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
      return { status: allowed ? "allowed" : "blocked", allowed, count, retryAfter, keyHash };
    },
    flush,
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush();
      closed = true;
    },
    stats: () => {
      let pendingHits = 0;
      for (const state of dirty) pendingHits += state.pending;
      return { keys: states.size, pendingHits, ...counters, degraded };
    },
  };
}
