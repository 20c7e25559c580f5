// The write-behind queue behind the tracking endpoints: accepted rows wait in memory and reach
// Postgres as multi-row statements, every `flushIntervalMs` or as soon as `batchSize` rows wait.
// A batch keeps its id across retries and the writer applies each id at most once, so a retry
// after a lost acknowledgement never records a row twice. While the database is down the queue
// keeps at most `maxQueued` rows (newest refused and counted), retries with backoff, and drains
// when the database is back.

import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { dbErrorSummary, isTransientDbError } from "../db/errors.ts";

/** Writes one batch; must apply a given `batchId` at most once (see tracking/rows.ts). */
export type BatchWriter<T> = (rows: readonly T[], batchId: string) => Promise<void>;

export interface WriteBehindOptions<T> {
  /** Names the queue in logs ("engagement", "discovery", "genre-preferences"). */
  name: string;
  write: BatchWriter<T>;
  log: Logger;
  /** Rows per statement; a full batch is written at once (default 500). */
  batchSize?: number;
  /** Longest wait before queued rows are written (default 50 ms). */
  flushIntervalMs?: number;
  /** Rows kept in memory at most, queued and in flight together (default 50,000). */
  maxQueued?: number;
  /** Statements in flight at once (default 2). */
  maxInFlight?: number;
  /** Backoff after a transient failure: first and largest delay (defaults 100 ms and 5 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
}

/** Counters of one queue since the process started. */
export interface WriteBehindStats {
  name: string;
  /** Rows waiting in memory (queued, awaiting retry or in flight). */
  backlog: number;
  accepted: number;
  written: number;
  /** Refused because the backlog was full. */
  dropped: number;
  /** Refused by the database itself (isolated one by one) or lost at shutdown. */
  rejected: number;
  failedAttempts: number;
  /** True while the last attempt failed. */
  failing: boolean;
}

export interface WriteBehind<T> {
  /** Queues a row; false (and counted as dropped) when the backlog is full. */
  enqueue(row: T): boolean;
  /**
   * Writes everything queued so far and waits for it. Resolves true when the backlog is empty,
   * false when a write failed (the rows stay queued and are retried with backoff).
   */
  flush(): Promise<boolean>;
  /** Stops the timers and drains what it can within `timeoutMs`; logs what was lost. */
  close(timeoutMs?: number): Promise<void>;
  stats(): WriteBehindStats;
}

interface Batch<T> {
  id: string;
  rows: T[];
}

const LOG_EVERY_MS = 10_000;

/** Builds a queue; nothing is written until rows are enqueued. */
export function createWriteBehind<T>(options: WriteBehindOptions<T>): WriteBehind<T> {
  const batchSize = options.batchSize ?? 500;
  const interval = options.flushIntervalMs ?? 50;
  const maxQueued = options.maxQueued ?? 50_000;
  const maxInFlight = options.maxInFlight ?? 2;
  const retryInitial = options.retryInitialMs ?? 100;
  const retryMax = options.retryMaxMs ?? 5_000;
  const { log, name } = options;

  let queue: T[] = [];
  /** Batches that failed transiently, retried first and with the same id. */
  const retries: Batch<T>[] = [];
  const inFlight = new Set<Promise<void>>();
  let inFlightRows = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let backoffUntil = 0;
  let backoff = 0;
  let closed = false;
  const counts = { accepted: 0, written: 0, dropped: 0, rejected: 0, failedAttempts: 0 };
  let failing = false;
  let droppedSinceLog = 0;
  let lastDropLog = 0;
  let lastFailureLog = 0;

  const backlog = () => queue.length + inFlightRows + retries.reduce((n, b) => n + b.rows.length, 0);

  function schedule(delay: number): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      pump();
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  }

  function nextBatch(): Batch<T> | undefined {
    if (retries.length > 0) return retries.shift();
    if (queue.length === 0) return undefined;
    const rows = queue.length <= batchSize ? queue : queue.slice(0, batchSize);
    queue = queue.length <= batchSize ? [] : queue.slice(batchSize);
    return { id: randomUUID(), rows };
  }

  /** Starts writes while there is work, capacity and no backoff in force. */
  function pump(): void {
    const now = Date.now();
    if (now < backoffUntil) {
      schedule(backoffUntil - now);
      return;
    }
    while (inFlight.size < maxInFlight) {
      const batch = nextBatch();
      if (!batch) return;
      start(batch);
    }
  }

  function start(batch: Batch<T>): void {
    inFlightRows += batch.rows.length;
    const task = attempt(batch).finally(() => {
      inFlightRows -= batch.rows.length;
      inFlight.delete(task);
      if (queue.length >= batchSize || retries.length > 0) pump();
      else if (queue.length > 0) schedule(interval);
    });
    inFlight.add(task);
  }

  async function attempt(batch: Batch<T>): Promise<void> {
    try {
      await options.write(batch.rows, batch.id);
      counts.written += batch.rows.length;
      if (failing) log.info("tracking", "Database writes recovered", { queue: name, backlog: backlog() - batch.rows.length });
      failing = false;
      backoff = 0;
    } catch (error) {
      counts.failedAttempts++;
      if (isTransientDbError(error)) {
        failing = true;
        retries.unshift(batch);
        backoff = Math.min(retryMax, backoff === 0 ? retryInitial : backoff * 2);
        backoffUntil = Date.now() + backoff;
        const now = Date.now();
        if (now - lastFailureLog >= LOG_EVERY_MS) {
          lastFailureLog = now;
          log.warn("tracking", "Database write failed; rows kept for retry", { queue: name, backlog: backlog(), retryInMs: backoff, error: dbErrorSummary(error) });
        }
        schedule(backoff);
        return;
      }
      // The database refused the data: split the batch to isolate the rows it refuses.
      if (batch.rows.length === 1) {
        counts.rejected++;
        log.warn("tracking", "Database refused a tracking row; dropped", { queue: name, error: dbErrorSummary(error) });
        return;
      }
      const half = Math.ceil(batch.rows.length / 2);
      retries.unshift({ id: randomUUID(), rows: batch.rows.slice(0, half) }, { id: randomUUID(), rows: batch.rows.slice(half) });
    }
  }

  function noteDrop(): void {
    counts.dropped++;
    droppedSinceLog++;
    const now = Date.now();
    if (now - lastDropLog >= LOG_EVERY_MS / 2) {
      lastDropLog = now;
      log.error("tracking", "Tracking backlog full; dropping interactions", { queue: name, dropped: droppedSinceLog, droppedTotal: counts.dropped, backlog: backlog() });
      droppedSinceLog = 0;
    }
  }

  async function drainOnce(): Promise<boolean> {
    // Start everything that can start, then wait for the writes in flight.
    backoffUntil = 0;
    pump();
    await Promise.all([...inFlight]);
    return !failing;
  }

  const stats = (): WriteBehindStats => ({ name, backlog: backlog(), ...counts, failing });

  return {
    enqueue(row) {
      if (closed || backlog() >= maxQueued) {
        noteDrop();
        return false;
      }
      counts.accepted++;
      queue.push(row);
      if (queue.length >= batchSize && !failing) pump();
      else schedule(failing ? Math.max(0, backoffUntil - Date.now()) : interval);
      return true;
    },
    async flush() {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      // Bounded: each round writes or fails; a failing round stops the flush.
      for (let round = 0; round < 10_000 && backlog() > 0; round++) {
        if (!(await drainOnce())) {
          schedule(backoff || retryInitial);
          return false;
        }
      }
      return backlog() === 0;
    },
    async close(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // Bounded by the deadline even when a write hangs (an unreachable host waits for its connect timeout).
      let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
      const untilDeadline = new Promise<false>((resolve) => {
        deadlineTimer = setTimeout(() => resolve(false), timeoutMs);
      });
      while (backlog() > 0 && Date.now() < deadline) {
        if (!(await Promise.race([drainOnce(), untilDeadline]))) await new Promise((resolve) => setTimeout(resolve, Math.min(backoff || retryInitial, Math.max(0, deadline - Date.now()))));
      }
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.race([Promise.all([...inFlight]), untilDeadline]);
      clearTimeout(deadlineTimer);
      const lost = backlog();
      if (lost > 0) {
        counts.rejected += lost;
        log.error("tracking", "Shutdown with unwritten tracking rows", { queue: name, lost });
      }
      log.info("tracking", "Write-behind queue closed", { ...stats() });
    },
    stats,
  };
}
