// Small pieces the console cards share: tiles, notices (success or inline error), Paris times and
// the progress display of a background job.

import type { Children } from "@kitajs/html";
import type { JobView } from "../../lib/admin/jobs.ts";
import { parisFormat } from "../../lib/paris-time.ts";

/** One figure with its label. */
export function Tile(props: { label: string; value?: string | number | null; note?: string }): JSX.Element {
  return (
    <div class="tile">
      <span class="tile-label" safe>
        {props.label}
      </span>
      <strong class="tile-value" safe>
        {props.value === undefined || props.value === null ? "–" : String(props.value)}
      </strong>
      {props.note ? (
        <span class="tile-note" safe>
          {props.note}
        </span>
      ) : (
        ""
      )}
    </div>
  );
}

/** What an action said: a success note or an inline error (role=alert). */
export interface CardNotice {
  kind: "ok" | "error";
  text: string;
}

export function Notice(props: { notice?: CardNotice; children?: Children }): JSX.Element {
  if (!props.notice) return "";
  const error = props.notice.kind === "error";
  return (
    <div class={error ? "notice notice-error" : "notice notice-ok"} role={error ? "alert" : "status"}>
      <span safe>{props.notice.text}</span>
      {props.children}
    </div>
  );
}

const PARIS = parisFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

/** A time as a Paris wall-clock label; "–" when absent. */
export function parisLabel(value: Date | string | null | undefined): string {
  if (!value) return "–";
  const date = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? "–" : PARIS.format(date);
}

export function Time(props: { value: Date | string | null | undefined }): JSX.Element {
  if (!props.value) return "–";
  const date = typeof props.value === "string" ? new Date(props.value) : props.value;
  return (
    <time datetime={date.toISOString()} safe>
      {parisLabel(date)}
    </time>
  );
}

/** The root id of the operations activity panel, where job progress appears. */
export const JOB_PANEL_ID = "ops-activity";

/** A background job: a progress bar polled every 500 ms while it runs, its message once done. */
export function JobProgress(props: { job: JobView }): JSX.Element {
  const { job } = props;
  const running = job.state === "running";
  const attrs = running ? { "hx-get": `/admin/operations/jobs/${job.id}`, "hx-trigger": "every 500ms", "hx-swap": "outerHTML" } : {};
  return (
    <div id={`job-${job.id}`} class={`job job-${job.state}`} data-job-state={job.state} {...attrs}>
      <div class="job-head">
        <strong safe>{job.kind}</strong>
        <span class="job-percent" safe>{`${job.percent}%`}</span>
      </div>
      <progress max="100" value={String(job.percent)} aria-label={`${job.kind} progress`} />
      {running ? (
        <p class="job-label" role="status" safe>
          {job.progress.label}
        </p>
      ) : (
        <p class={job.state === "failed" ? "notice notice-error" : "notice notice-ok"} role={job.state === "failed" ? "alert" : "status"} safe>
          {job.message ?? ""}
        </p>
      )}
    </div>
  );
}
