// A write under the request deadline (docs/operations.md, "When the database is down", "A write
// under the deadline"): either it commits and the answer says so, or it is rolled back and the
// 503 says so; never a 503 for a write that then commits.
//
// The rule: COMMIT is sent only while the request's deadline is open, and once it is sent the
// deadline's 503 waits for the commit's outcome instead of racing it. So when the deadline passes
// before the commit, the transaction can never commit (the callback throws at its end and the
// driver rolls back, whenever the database answers again); when it passes during the commit, the
// answer is the commit's own (and once a write has committed, the request's answer is awaited:
// it happened). On the Postgres server each statement of the transaction is also bounded by the
// time left (`statement_timeout`, local to the transaction).

import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** A request's deadline as a write sees it. */
export interface WriteDeadline {
  /** Milliseconds left before the deadline (0 or less once it has passed). */
  remainingMs(): number;
  /** Called at the end of a transaction, just before COMMIT: throws DeadlinePassed when the deadline is gone. */
  beginCommit(): void;
  /** The commit begun by beginCommit has settled: `committed` when it succeeded. */
  endCommit(committed?: boolean): void;
}

/** The deadline passed before the write could commit: it was rolled back. */
export class DeadlinePassed extends Error {
  constructor() {
    super("Request deadline passed before the commit; rolled back");
    this.name = "DeadlinePassed";
  }
}

/**
 * The deadline of one request, held by the app's deadline race (src/app.ts). Once a write of the
 * request has committed, the request has happened: its answer is awaited, never replaced by a 503.
 */
export class RequestDeadline implements WriteDeadline {
  private expired = false;
  private commits = 0;
  private committed = false;
  private sendUnavailable?: () => void;
  constructor(private readonly expiresAt: number) {}

  remainingMs(): number {
    return this.expired ? 0 : this.expiresAt - Date.now();
  }

  /** How the race answers 503: at once when a commit finds the deadline gone before its timer fired. */
  onExpired(send: () => void): void {
    this.sendUnavailable = send;
  }

  beginCommit(): void {
    if (this.remainingMs() <= 0) {
      this.expireNow();
      throw new DeadlinePassed();
    }
    this.commits++;
  }

  endCommit(committed = false): void {
    this.commits = Math.max(0, this.commits - 1);
    if (committed) this.committed = true;
  }

  /**
   * The deadline's timer has fired: true when the 503 went out (no commit under way or done, and
   * none will start), false when a commit is under way or done and the answer must be awaited.
   */
  expire(): boolean {
    if (this.commits > 0 || this.committed) return false;
    this.expireNow();
    return true;
  }

  private expireNow(): void {
    if (this.expired) return;
    this.expired = true;
    this.sendUnavailable?.();
  }
}

const deadlines = new WeakMap<Request, RequestDeadline>();

/** Starts the deadline of a request, `ms` from now (the app does this before any handler runs). */
export function startRequestDeadline(request: Request, ms: number): RequestDeadline {
  const deadline = new RequestDeadline(Date.now() + ms);
  deadlines.set(request, deadline);
  return deadline;
}

/** The deadline of a request, if the app started one (`app.handle` in tests runs without). */
export function requestDeadline(request: Request): WriteDeadline | undefined {
  return deadlines.get(request);
}

/** A transaction's result that must not be kept: it is rolled back and still returned. */
class RolledBack<T> extends Error {
  constructor(readonly result: T) {
    super("rolled back");
  }
}

/**
 * Runs `work` in one transaction under `deadline` (none: an ordinary transaction). A result for
 * which `keep` says false is rolled back and returned as it is (a refusal found mid-way, such as
 * an unreachable rate limiter). Throws DeadlinePassed when the deadline passed first (rolled back).
 */
export async function writeWithinDeadline<T>(db: Db, deadline: WriteDeadline | undefined, work: (tx: Db) => Promise<T>, keep: (result: T) => boolean = () => true): Promise<T> {
  if (deadline && deadline.remainingMs() <= 0) throw new DeadlinePassed();
  let committing = false;
  let committed = false;
  try {
    const result = await db.transaction(async (tx) => {
      if (deadline) await tx.execute(sql`select set_config('statement_timeout', ${String(Math.max(1, Math.ceil(deadline.remainingMs())))}, true)`);
      const result = await work(tx as unknown as Db);
      if (!keep(result)) throw new RolledBack(result);
      // From here to COMMIT is synchronous in both drivers: no timer can pass in between.
      deadline?.beginCommit();
      committing = true;
      return result;
    });
    committed = committing;
    return result;
  } catch (error) {
    if (error instanceof RolledBack) return error.result as T;
    throw error;
  } finally {
    if (committing) deadline?.endCommit(committed);
  }
}
