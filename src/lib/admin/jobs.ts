// Background jobs of the admin console (see docs/console-operations.md, "Long actions"): a long
// action (spreadsheet import, coordinate rebuild, restore) runs after the request has answered,
// reporting its progress here; the console polls GET /admin/operations/jobs/:id and scripts poll
// GET /api/admin/jobs/:id. The registry lives in the process: a job is visible on the instance that
// runs it, and finished jobs are forgotten after an hour (at most 50 are kept).

import { randomUUID } from "node:crypto";

export type JobState = "running" | "succeeded" | "failed";

/** What a job reports while it runs. */
export interface JobProgress {
  /** Steps done (venues geocoded, phases passed). */
  done: number;
  /** Steps in all; 0 while unknown. */
  total: number;
  /** What is happening now, e.g. "Geocoding venues". */
  label: string;
}

/** A job as callers see it. */
export interface JobView {
  id: string;
  kind: string;
  state: JobState;
  progress: JobProgress;
  /** 0–100, rounded; 100 once finished. */
  percent: number;
  startedAt: string;
  finishedAt: string | null;
  /** Success text or failure text, once finished. */
  message: string | null;
  /** Extra result fields of a finished job (counts, meta). */
  result: Record<string, unknown> | null;
}

/** What a job's body returns: a message and optional result fields; throwing marks it failed. */
export interface JobOutcome {
  ok: boolean;
  message: string;
  result?: Record<string, unknown>;
}

export type ReportProgress = (progress: Partial<JobProgress>) => void;

export interface JobRegistry {
  /** Starts `run` in the background and returns the job at once. */
  start(kind: string, run: (report: ReportProgress) => Promise<JobOutcome>): JobView;
  /** A job by id, or undefined (unknown, malformed or forgotten). */
  get(id: string): JobView | undefined;
  /** Resolves when every running job has finished (shutdown, tests). */
  settle(): Promise<void>;
}

const KEPT_MS = 60 * 60 * 1000;
const KEPT_MAX = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Job extends Omit<JobView, "percent"> {
  finishedMs?: number;
}

function percentOf(job: Job): number {
  if (job.state !== "running") return 100;
  const { done, total } = job.progress;
  if (total <= 0) return 0;
  return Math.max(0, Math.min(99, Math.round((done / total) * 100)));
}

/** The registry of one process. `onError` hears unexpected failures (a job body that threw). */
export function createJobRegistry(options: { now: () => Date; onError: (kind: string, error: unknown) => void }): JobRegistry {
  const jobs = new Map<string, Job>();
  const running = new Set<Promise<void>>();

  const forgetOld = () => {
    const cutoff = options.now().getTime() - KEPT_MS;
    for (const [id, job] of jobs) if (job.finishedMs !== undefined && job.finishedMs < cutoff) jobs.delete(id);
    if (jobs.size <= KEPT_MAX) return;
    for (const [id, job] of jobs) {
      if (jobs.size <= KEPT_MAX) break;
      if (job.state !== "running") jobs.delete(id);
    }
  };

  const view = (job: Job): JobView => {
    const { finishedMs: _internal, ...rest } = job;
    return { ...rest, progress: { ...job.progress }, percent: percentOf(job) };
  };

  return {
    start(kind, run) {
      forgetOld();
      const job: Job = {
        id: randomUUID(),
        kind,
        state: "running",
        progress: { done: 0, total: 0, label: "Starting" },
        startedAt: options.now().toISOString(),
        finishedAt: null,
        message: null,
        result: null,
      };
      jobs.set(job.id, job);
      const finish = (state: JobState, message: string, result?: Record<string, unknown>) => {
        const at = options.now();
        Object.assign(job, { state, message, result: result ?? null, finishedAt: at.toISOString(), finishedMs: at.getTime() });
      };
      const report: ReportProgress = (progress) => {
        if (job.state === "running") job.progress = { ...job.progress, ...progress };
      };
      // Started on the next tick, so the request that started it answers first.
      const task = Promise.resolve()
        .then(() => run(report))
        .then(
          (outcome) => finish(outcome.ok ? "succeeded" : "failed", outcome.message, outcome.result),
          (error) => {
            options.onError(kind, error);
            finish("failed", "The action failed unexpectedly; nothing more was changed. See the server log.");
          },
        )
        .finally(() => running.delete(task));
      running.add(task);
      return view(job);
    },
    get(id) {
      if (!UUID.test(id)) return undefined;
      const job = jobs.get(id);
      return job ? view(job) : undefined;
    },
    async settle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
