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

/** The queue's settings and mutable state, shared by the steps below. */
interface Queue<T> {
  options: WriteBehindOptions<T>;
  name: string;
  log: Logger;
  timers: Timers;
  batchSize: number;
  interval: number;
  maxQueued: number;
  maxInFlight: number;
  retryInitial: number;
  retryMax: number;
  maxBacklogMs: number;
  maxWaitMs: number;
  queue: T[];
  /** Acceptance time (ms) of each queued row, in queue order. */
  queueAt: number[];
  /** Callers waiting for a queued row, by the row's sequence number (ascending). */
  waiting: { seq: number; resolve: () => void }[];
  /** Sequence number of queue[0]; rows are numbered in acceptance order. */
  queueHeadSeq: number;
  inFlightBatches: Set<Batch<T>>;
  /** Batches that failed transiently, retried first and with the same id. */
  retries: Batch<T>[];
  inFlight: Set<Promise<void>>;
  inFlightRows: number;
  timer: TimerHandle | undefined;
  backoffUntil: number;
  backoff: number;
  closed: boolean;
  counts: { accepted: number; written: number; dropped: number; rejected: number; failedAttempts: number; waited: number };
  failing: boolean;
  droppedSinceLog: number;
  lastDropLog: number;
  lastFailureLog: number;
}

/** Builds a queue; nothing is written until rows are enqueued. */
export function createWriteBehind<T>(options: WriteBehindOptions<T>): WriteBehind<T> {
  const q = createQueue(options);
  return {
    resume: () => resume(q),
    enqueue: (row) => enqueue(q, row),
    backpressure: () => backpressure(q),
    flush: () => flush(q),
    close: (timeoutMs = 5_000) => close(q, timeoutMs),
    stats: () => stats(q),
  };
}

/** Resolves the defaults into a fresh, empty queue. */
function createQueue<T>(options: WriteBehindOptions<T>): Queue<T> {
  return {
    options,
    name: options.name,
    log: options.log,
    timers: options.timers ?? systemTimers,
    batchSize: options.batchSize ?? 500,
    interval: options.flushIntervalMs ?? 50,
    maxQueued: options.maxQueued ?? 50_000,
    maxInFlight: options.maxInFlight ?? 2,
    retryInitial: options.retryInitialMs ?? 100,
    retryMax: options.retryMaxMs ?? 5_000,
    maxBacklogMs: options.maxBacklogMs ?? 200,
    maxWaitMs: options.maxWaitMs ?? 2_000,
    queue: [],
    queueAt: [],
    waiting: [],
    queueHeadSeq: 0,
    inFlightBatches: new Set(),
    retries: [],
    inFlight: new Set(),
    inFlightRows: 0,
    timer: undefined,
    backoffUntil: 0,
    backoff: 0,
    closed: false,
    counts: { accepted: 0, written: 0, dropped: 0, rejected: 0, failedAttempts: 0, waited: 0 },
    failing: false,
    droppedSinceLog: 0,
    lastDropLog: 0,
    lastFailureLog: 0,
  };
}

/** Rows not yet written: queued, in flight or awaiting retry. */
function backlog<T>(q: Queue<T>): number {
  return q.queue.length + q.inFlightRows + q.retries.reduce((n, b) => n + b.rows.length, 0);
}

/** When the oldest unwritten row was accepted, or undefined when every row is written. */
function oldestUnwrittenAt<T>(q: Queue<T>): number | undefined {
  let oldest = q.queueAt.length > 0 ? q.queueAt[0] : Infinity;
  for (const batch of q.inFlightBatches) if (batch.oldestAt < oldest) oldest = batch.oldestAt;
  for (const batch of q.retries) if (batch.oldestAt < oldest) oldest = batch.oldestAt;
  return oldest === Infinity ? undefined : oldest;
}

function release(waiters: (() => void)[]): void {
  for (const resolve of waiters) resolve();
}

/** Answers the callers waiting for a batch (written, or failed so waiting would not help). */
function releaseBatch<T>(batch: Batch<T>): void {
  release(batch.waiters);
  batch.waiters = [];
}

/** Arms the next pump unless the queue is closed or one is armed. */
function schedule<T>(q: Queue<T>, delay: number): void {
  if (q.closed || q.timer) return;
  q.timer = q.timers.setTimeout(
    () => {
      q.timer = undefined;
      pump(q);
    },
    delay,
    true,
  );
}

function cancelTimer<T>(q: Queue<T>): void {
  if (q.timer) q.timers.clearTimeout(q.timer);
  q.timer = undefined;
}

/** The next batch to write: a retry first, else up to `batchSize` queued rows. */
function nextBatch<T>(q: Queue<T>): Batch<T> | undefined {
  if (q.retries.length > 0) return q.retries.shift();
  if (q.queue.length === 0) return undefined;
  const all = q.queue.length <= q.batchSize;
  const rows = all ? q.queue : q.queue.slice(0, q.batchSize);
  const oldestAt = q.queueAt[0];
  q.queue = all ? [] : q.queue.slice(q.batchSize);
  q.queueAt = all ? [] : q.queueAt.slice(q.batchSize);
  q.queueHeadSeq += rows.length;
  return { id: randomUUID(), rows, oldestAt, waiters: takeWaiters(q) };
}

/** Callers waiting for a row now taken off the queue: they now wait for its batch. */
function takeWaiters<T>(q: Queue<T>): (() => void)[] {
  let taken = 0;
  while (taken < q.waiting.length && q.waiting[taken].seq < q.queueHeadSeq) taken++;
  const waiters = q.waiting.slice(0, taken).map((w) => w.resolve);
  if (taken > 0) q.waiting = q.waiting.slice(taken);
  return waiters;
}

/** Starts writes while there is work, capacity and no backoff in force. */
function pump<T>(q: Queue<T>): void {
  const now = q.timers.now();
  if (now < q.backoffUntil) {
    schedule(q, q.backoffUntil - now);
    return;
  }
  while (q.inFlight.size < q.maxInFlight) {
    const batch = nextBatch(q);
    if (!batch) return;
    start(q, batch);
  }
}

/** Writes a batch in the background; when it settles, the next write starts or is scheduled. */
function start<T>(q: Queue<T>, batch: Batch<T>): void {
  q.inFlightRows += batch.rows.length;
  q.inFlightBatches.add(batch);
  const task = attempt(q, batch).finally(() => {
    q.inFlightRows -= batch.rows.length;
    q.inFlightBatches.delete(batch);
    q.inFlight.delete(task);
    if (q.queue.length >= q.batchSize || q.retries.length > 0) pump(q);
    else if (q.queue.length > 0) schedule(q, q.interval);
  });
  q.inFlight.add(task);
}

/** One write of a batch; a failure is kept for retry or split, never thrown. */
async function attempt<T>(q: Queue<T>, batch: Batch<T>): Promise<void> {
  try {
    await q.options.write(batch.rows, batch.id);
    recordWritten(q, batch);
  } catch (error) {
    q.counts.failedAttempts++;
    // Waiting does not help while writes fail: answer the waiting callers now.
    releaseBatch(batch);
    if (isTransientDbError(error)) retryLater(q, batch, error);
    else isolateRefused(q, batch, error);
  }
}

/** A batch is written: count it, answer its callers, and end a failure spell. */
function recordWritten<T>(q: Queue<T>, batch: Batch<T>): void {
  q.counts.written += batch.rows.length;
  releaseBatch(batch);
  if (q.failing) q.log.info("tracking", "Database writes recovered", { queue: q.name, backlog: backlog(q) - batch.rows.length });
  q.failing = false;
  q.backoff = 0;
}

/** A transient failure: the batch is retried first, with the same id, after a growing backoff. */
function retryLater<T>(q: Queue<T>, batch: Batch<T>, error: unknown): void {
  q.failing = true;
  q.retries.unshift(batch);
  q.backoff = Math.min(q.retryMax, q.backoff === 0 ? q.retryInitial : q.backoff * 2);
  q.backoffUntil = q.timers.now() + q.backoff;
  const now = q.timers.now();
  if (now - q.lastFailureLog >= LOG_EVERY_MS) {
    q.lastFailureLog = now;
    q.log.warn("tracking", "Database write failed; rows kept for retry", { queue: q.name, backlog: backlog(q), retryInMs: q.backoff, error: dbErrorSummary(error) });
  }
  schedule(q, q.backoff);
}

/** The database refused the data: split the batch to isolate the rows it refuses. */
function isolateRefused<T>(q: Queue<T>, batch: Batch<T>, error: unknown): void {
  if (batch.rows.length === 1) {
    q.counts.rejected++;
    q.log.warn("tracking", "Database refused a tracking row; dropped", { queue: q.name, error: dbErrorSummary(error) });
    return;
  }
  const half = Math.ceil(batch.rows.length / 2);
  q.retries.unshift({ id: randomUUID(), rows: batch.rows.slice(0, half), oldestAt: batch.oldestAt, waiters: [] }, { id: randomUUID(), rows: batch.rows.slice(half), oldestAt: batch.oldestAt, waiters: [] });
}

/** Counts a refused row; logged at most every few seconds with the drops since the last line. */
function noteDrop<T>(q: Queue<T>): void {
  q.counts.dropped++;
  q.droppedSinceLog++;
  const now = q.timers.now();
  if (now - q.lastDropLog >= LOG_EVERY_MS / 2) {
    q.lastDropLog = now;
    q.log.error("tracking", "Tracking backlog full; dropping interactions", { queue: q.name, dropped: q.droppedSinceLog, droppedTotal: q.counts.dropped, backlog: backlog(q) });
    q.droppedSinceLog = 0;
  }
}

/** One drain round; true unless a write failed. */
async function drainOnce<T>(q: Queue<T>): Promise<boolean> {
  // Start everything that can start, then wait for the writes in flight.
  q.backoffUntil = 0;
  pump(q);
  await Promise.all([...q.inFlight]);
  return !q.failing;
}

function stats<T>(q: Queue<T>): WriteBehindStats {
  const oldest = oldestUnwrittenAt(q);
  return { name: q.name, backlog: backlog(q), ...q.counts, failing: q.failing, backlogAgeMs: oldest === undefined ? 0 : Math.max(0, q.timers.now() - oldest) };
}

function resume<T>(q: Queue<T>): void {
  if (q.closed) return;
  q.backoff = 0;
  q.backoffUntil = 0;
  cancelTimer(q);
  pump(q);
}

function enqueue<T>(q: Queue<T>, row: T): boolean {
  if (q.closed || backlog(q) >= q.maxQueued) {
    noteDrop(q);
    return false;
  }
  q.counts.accepted++;
  q.queue.push(row);
  q.queueAt.push(q.timers.now());
  if (q.queue.length >= q.batchSize && !q.failing) pump(q);
  else schedule(q, q.failing ? Math.max(0, q.backoffUntil - q.timers.now()) : q.interval);
  return true;
}

function backpressure<T>(q: Queue<T>): Promise<void> | undefined {
  if (q.failing || q.closed || q.queue.length === 0) return undefined;
  const oldest = oldestUnwrittenAt(q);
  if (oldest === undefined || q.timers.now() - oldest <= q.maxBacklogMs) return undefined;
  q.counts.waited++;
  return waitForRow(q, q.queueHeadSeq + q.queue.length - 1);
}

/** Settles when the row `seq` is written (or its write fails), or after `maxWaitMs`. */
function waitForRow<T>(q: Queue<T>, seq: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      q.timers.clearTimeout(cap);
      resolve();
    };
    const cap = q.timers.setTimeout(finish, q.maxWaitMs);
    q.waiting.push({ seq, resolve: finish });
  });
}

async function flush<T>(q: Queue<T>): Promise<boolean> {
  cancelTimer(q);
  // Bounded: each round writes or fails; a failing round stops the flush.
  for (let round = 0; round < 10_000 && backlog(q) > 0; round++) {
    if (!(await drainOnce(q))) {
      schedule(q, q.backoff || q.retryInitial);
      return false;
    }
  }
  return backlog(q) === 0;
}

async function close<T>(q: Queue<T>, timeoutMs: number): Promise<void> {
  const deadline = q.timers.now() + timeoutMs;
  cancelTimer(q);
  // Bounded by the deadline even when a write hangs (an unreachable host waits for its connect timeout).
  let deadlineTimer: TimerHandle | undefined;
  const untilDeadline = new Promise<false>((resolve) => {
    deadlineTimer = q.timers.setTimeout(() => resolve(false), timeoutMs);
  });
  await drainUntil(q, deadline, untilDeadline);
  q.closed = true;
  release(q.waiting.map((w) => w.resolve));
  q.waiting = [];
  cancelTimer(q);
  await Promise.race([Promise.all([...q.inFlight]), untilDeadline]);
  q.timers.clearTimeout(deadlineTimer);
  reportLost(q);
  q.log.info("tracking", "Write-behind queue closed", { ...stats(q) });
}

/** Drain rounds until the backlog is empty or the deadline passes, pausing for the backoff after a failed round. */
async function drainUntil<T>(q: Queue<T>, deadline: number, untilDeadline: Promise<false>): Promise<void> {
  while (backlog(q) > 0 && q.timers.now() < deadline) {
    if (!(await Promise.race([drainOnce(q), untilDeadline]))) await new Promise<void>((resolve) => q.timers.setTimeout(resolve, Math.min(q.backoff || q.retryInitial, Math.max(0, deadline - q.timers.now()))));
  }
}

/** Rows still unwritten at shutdown count as rejected, and are logged. */
function reportLost<T>(q: Queue<T>): void {
  const lost = backlog(q);
  if (lost > 0) {
    q.counts.rejected += lost;
    q.log.error("tracking", "Shutdown with unwritten tracking rows", { queue: q.name, lost });
  }
}
