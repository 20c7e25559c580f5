// The write-behind queue behind the tracking endpoints: accepted rows wait in memory and reach
// Postgres as multi-row statements, every `flushIntervalMs` or as soon as `batchSize` rows wait.
// A batch keeps its id across retries and the writer applies each id at most once, so a retry
// after a lost acknowledgement never records a row twice. While the database is down the queue
// keeps at most `maxQueued` rows (newest refused and counted), retries with backoff, and drains
// when the database is back.
// The backlog is also bounded in time: once its oldest unwritten row is older than
// `maxBacklogMs` (200 ms), `backpressure()` hands callers a promise that settles when their row
// is written, so they answer only then (at most `maxWaitMs`; never while the database is failing,
// when waiting would not help). What a crash can lose is then about `maxBacklogMs` of accepted
// traffic, however far the database falls behind. Up to `maxInFlight` statements run at once.

import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { dbErrorSummary, isTransientDbError } from "../db/errors.ts";
import { systemTimers, type TimerHandle, type Timers } from "../timers.ts";

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
  /** Age of the oldest unwritten row past which callers wait for their write (default 200 ms). */
  maxBacklogMs?: number;
  /** Longest a caller waits under back-pressure (default 2,000 ms). */
  maxWaitMs?: number;
  /** Backoff after a transient failure: first and largest delay (defaults 100 ms and 5 s). */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Clock and timers (default: the real ones; tests pass a test clock). */
  timers?: Timers;
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
  /** Age in ms of the oldest row not yet written (0 when none). */
  backlogAgeMs: number;
  /** Callers that waited for their write under back-pressure. */
  waited: number;
}

export interface WriteBehind<T> {
  /** Queues a row; false (and counted as dropped) when the backlog is full. */
  enqueue(row: T): boolean;
  /**
   * Called right after a successful enqueue: undefined while the backlog is within its time
   * bound, else a promise that settles once the row just queued is written (or the write fails,
   * or `maxWaitMs` passes). Never rejects.
   */
  backpressure(): Promise<void> | undefined;
  /**
   * Writes everything queued so far and waits for it. Resolves true when the backlog is empty,
   * false when a write failed (the rows stay queued and are retried with backoff).
   */
  flush(): Promise<boolean>;
  /**
   * The database is reachable again: the retry back-off is dropped and the backlog starts draining
   * now, oldest first (the rows accepted meanwhile queue behind it, still within the bound).
   */
  resume(): void;
  /** Stops the timers and drains what it can within `timeoutMs`; logs what was lost. */
  close(timeoutMs?: number): Promise<void>;
  stats(): WriteBehindStats;
}

interface Batch<T> {
  id: string;
  rows: T[];
  /** When its oldest row was accepted (ms). */
  oldestAt: number;
  /** Callers waiting for this batch to be written. */
  waiters: (() => void)[];
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
  const maxBacklogMs = options.maxBacklogMs ?? 200;
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const { log, name } = options;
  const timers = options.timers ?? systemTimers;

  let queue: T[] = [];
  /** Acceptance time (ms) of each queued row, in queue order. */
  let queueAt: number[] = [];
  /** Callers waiting for a queued row, by the row's sequence number (ascending). */
  let waiting: { seq: number; resolve: () => void }[] = [];
  /** Sequence number of queue[0]; rows are numbered in acceptance order. */
  let queueHeadSeq = 0;
  const inFlightBatches = new Set<Batch<T>>();
  /** Batches that failed transiently, retried first and with the same id. */
  const retries: Batch<T>[] = [];
  const inFlight = new Set<Promise<void>>();
  let inFlightRows = 0;
  let timer: TimerHandle | undefined;
  let backoffUntil = 0;
  let backoff = 0;
  let closed = false;
  const counts = { accepted: 0, written: 0, dropped: 0, rejected: 0, failedAttempts: 0, waited: 0 };
  let failing = false;
  let droppedSinceLog = 0;
  let lastDropLog = 0;
  let lastFailureLog = 0;

  const backlog = () => queue.length + inFlightRows + retries.reduce((n, b) => n + b.rows.length, 0);

  /** When the oldest unwritten row was accepted, or undefined when every row is written. */
  function oldestUnwrittenAt(): number | undefined {
    let oldest = queueAt.length > 0 ? queueAt[0] : Infinity;
    for (const batch of inFlightBatches) if (batch.oldestAt < oldest) oldest = batch.oldestAt;
    for (const batch of retries) if (batch.oldestAt < oldest) oldest = batch.oldestAt;
    return oldest === Infinity ? undefined : oldest;
  }

  function release(waiters: (() => void)[]): void {
    for (const resolve of waiters) resolve();
  }

  function schedule(delay: number): void {
    if (closed || timer) return;
    timer = timers.setTimeout(
      () => {
        timer = undefined;
        pump();
      },
      delay,
      true,
    );
  }

  function nextBatch(): Batch<T> | undefined {
    if (retries.length > 0) return retries.shift();
    if (queue.length === 0) return undefined;
    const all = queue.length <= batchSize;
    const rows = all ? queue : queue.slice(0, batchSize);
    const oldestAt = queueAt[0];
    queue = all ? [] : queue.slice(batchSize);
    queueAt = all ? [] : queueAt.slice(batchSize);
    queueHeadSeq += rows.length;
    // Callers waiting for a row of this batch now wait for the batch.
    let taken = 0;
    while (taken < waiting.length && waiting[taken].seq < queueHeadSeq) taken++;
    const waiters = waiting.slice(0, taken).map((w) => w.resolve);
    if (taken > 0) waiting = waiting.slice(taken);
    return { id: randomUUID(), rows, oldestAt, waiters };
  }

  /** Starts writes while there is work, capacity and no backoff in force. */
  function pump(): void {
    const now = timers.now();
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
    inFlightBatches.add(batch);
    const task = attempt(batch).finally(() => {
      inFlightRows -= batch.rows.length;
      inFlightBatches.delete(batch);
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
      release(batch.waiters);
      batch.waiters = [];
      if (failing) log.info("tracking", "Database writes recovered", { queue: name, backlog: backlog() - batch.rows.length });
      failing = false;
      backoff = 0;
    } catch (error) {
      counts.failedAttempts++;
      // Waiting does not help while writes fail: answer the waiting callers now.
      release(batch.waiters);
      batch.waiters = [];
      if (isTransientDbError(error)) {
        failing = true;
        retries.unshift(batch);
        backoff = Math.min(retryMax, backoff === 0 ? retryInitial : backoff * 2);
        backoffUntil = timers.now() + backoff;
        const now = timers.now();
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
      retries.unshift({ id: randomUUID(), rows: batch.rows.slice(0, half), oldestAt: batch.oldestAt, waiters: [] }, { id: randomUUID(), rows: batch.rows.slice(half), oldestAt: batch.oldestAt, waiters: [] });
    }
  }

  function noteDrop(): void {
    counts.dropped++;
    droppedSinceLog++;
    const now = timers.now();
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

  const stats = (): WriteBehindStats => {
    const oldest = oldestUnwrittenAt();
    return { name, backlog: backlog(), ...counts, failing, backlogAgeMs: oldest === undefined ? 0 : Math.max(0, timers.now() - oldest) };
  };

  function resume(): void {
    if (closed) return;
    backoff = 0;
    backoffUntil = 0;
    if (timer) timers.clearTimeout(timer);
    timer = undefined;
    pump();
  }

  return {
    resume,
    enqueue(row) {
      if (closed || backlog() >= maxQueued) {
        noteDrop();
        return false;
      }
      counts.accepted++;
      queue.push(row);
      queueAt.push(timers.now());
      if (queue.length >= batchSize && !failing) pump();
      else schedule(failing ? Math.max(0, backoffUntil - timers.now()) : interval);
      return true;
    },
    backpressure() {
      if (failing || closed || queue.length === 0) return undefined;
      const oldest = oldestUnwrittenAt();
      if (oldest === undefined || timers.now() - oldest <= maxBacklogMs) return undefined;
      counts.waited++;
      const seq = queueHeadSeq + queue.length - 1;
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          timers.clearTimeout(cap);
          resolve();
        };
        const cap = timers.setTimeout(finish, maxWaitMs);
        waiting.push({ seq, resolve: finish });
      });
    },
    async flush() {
      if (timer) {
        timers.clearTimeout(timer);
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
      const deadline = timers.now() + timeoutMs;
      if (timer) timers.clearTimeout(timer);
      timer = undefined;
      // Bounded by the deadline even when a write hangs (an unreachable host waits for its connect timeout).
      let deadlineTimer: TimerHandle | undefined;
      const untilDeadline = new Promise<false>((resolve) => {
        deadlineTimer = timers.setTimeout(() => resolve(false), timeoutMs);
      });
      while (backlog() > 0 && timers.now() < deadline) {
        if (!(await Promise.race([drainOnce(), untilDeadline]))) await new Promise<void>((resolve) => timers.setTimeout(resolve, Math.min(backoff || retryInitial, Math.max(0, deadline - timers.now()))));
      }
      closed = true;
      release(waiting.map((w) => w.resolve));
      waiting = [];
      if (timer) timers.clearTimeout(timer);
      await Promise.race([Promise.all([...inFlight]), untilDeadline]);
      timers.clearTimeout(deadlineTimer);
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
