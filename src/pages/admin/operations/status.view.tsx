// The Runtime Data Status and Live Snapshot cards of /admin/operations (see
// docs/console-operations.md): where the live events come from, with Revalidate Homepage; the first
// five live events, with Refresh and a dry-run check of the source chain that writes nothing.

import { siteHref } from "../../../lib/links.ts";
import type { ReaderStatus, SourceAttempt } from "../../../lib/events/pipeline.ts";
import type { LiveEvent } from "../../../lib/sheet/types.ts";
import { Notice, Tile, Time, type CardNotice } from "../widgets.view.tsx";

export const STATUS_CARD_ID = "ops-status";
export const SNAPSHOT_CARD_ID = "ops-snapshot";

const SOURCE_LABEL: Record<string, string> = { store: "Store", backup: "Newest backup (fallback)", local: "Local CSV fallback", test: "Test dataset" };

export interface StatusCardProps {
  dataMode: string;
  runtime: ReaderStatus;
  storeRows: number;
  notice?: CardNotice;
}

export function StatusCard(props: StatusCardProps): JSX.Element {
  const r = props.runtime;
  return (
    <section id={STATUS_CARD_ID} class="card" aria-labelledby="ops-status-title" hx-get={siteHref("/admin/operations/status")} hx-trigger="ops-refresh from:body" hx-swap="outerHTML">
      <div class="card-head">
        <h2 id="ops-status-title">Runtime Data Status</h2>
      </div>
      <div class="tiles">
        <Tile label="Data mode" value={props.dataMode} />
        <Tile label="Live source" value={r.source ? (SOURCE_LABEL[r.source] ?? r.source) : "not read yet"} />
        <Tile label="Live events" value={r.eventCount} />
        <Tile label="Store events" value={props.storeRows} />
      </div>
      <p>
        Last check: <Time value={r.lastFetchTime} />
      </p>
      {r.fallbackReason ? (
        <p class="notice notice-warning" safe>
          {`Latest fallback reason: ${r.fallbackReason}`}
        </p>
      ) : (
        <p>No fallback on the latest read.</p>
      )}
      <Notice notice={props.notice} />
      <div class="card-actions">
        <form method="post" action={siteHref("/admin/operations/revalidate")} hx-post={siteHref("/admin/operations/revalidate")} hx-target={`#${STATUS_CARD_ID}`} hx-swap="outerHTML" hx-disabled-elt="find button">
          <button type="submit" class="button">
            Revalidate Homepage
          </button>
        </form>
      </div>
    </section>
  );
}

export interface SnapshotCardProps {
  events: LiveEvent[];
  source?: string;
  error?: string;
  check?: { source: string; eventCount: number; fallbackReason?: string; attempts: SourceAttempt[] } | { error: string };
}

export function SnapshotCard(props: SnapshotCardProps): JSX.Element {
  return (
    <section id={SNAPSHOT_CARD_ID} class="card" aria-labelledby="ops-snapshot-title">
      <div class="card-head">
        <h2 id="ops-snapshot-title">Live Snapshot</h2>
        {props.source ? (
          <span class="badge" safe>
            {SOURCE_LABEL[props.source] ?? props.source}
          </span>
        ) : (
          ""
        )}
      </div>
      {props.error ? (
        <p class="notice notice-error" role="alert" safe>
          {props.error}
        </p>
      ) : props.events.length === 0 ? (
        <p class="empty">No live events.</p>
      ) : (
        <div class="table-scroll">
          <table class="data-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Date</th>
                <th scope="col">Time</th>
                <th scope="col">Location</th>
                <th scope="col">Area</th>
                <th scope="col">Genres</th>
                <th scope="col">Type</th>
              </tr>
            </thead>
            <tbody>
              {props.events.map((e) => (
                <tr>
                  <td safe>{e.eventName}</td>
                  <td safe>{e.date ?? ""}</td>
                  <td safe>{e.time ?? ""}</td>
                  <td safe>{e.location ?? ""}</td>
                  <td safe>{String(e.arrondissement)}</td>
                  <td safe>{e.genres.join(", ")}</td>
                  <td safe>{e.type ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.check ? <SourceCheck check={props.check} /> : ""}
      <div class="card-actions">
        <a class="button button-quiet" href={siteHref("/admin/operations#ops-snapshot")} hx-get={siteHref("/admin/operations/snapshot")} hx-target={`#${SNAPSHOT_CARD_ID}`} hx-swap="outerHTML">
          Refresh
        </a>
        <a class="button" href={siteHref("/admin/operations/snapshot?check=1")} hx-get={siteHref("/admin/operations/snapshot?check=1")} hx-target={`#${SNAPSHOT_CARD_ID}`} hx-swap="outerHTML">
          Dry-run source check
        </a>
      </div>
    </section>
  );
}

function SourceCheck(props: { check: NonNullable<SnapshotCardProps["check"]> }): JSX.Element {
  const c = props.check;
  if ("error" in c) {
    return (
      <p class="notice notice-error" role="alert" safe>
        {`Source check failed: ${c.error}`}
      </p>
    );
  }
  return (
    <div class="notice notice-ok" role="status">
      <p safe>{`Source check (nothing written): ${SOURCE_LABEL[c.source] ?? c.source} would serve ${c.eventCount} events.`}</p>
      <ul class="report">
        {c.attempts.map((a) => (
          <li safe>{`${a.source}: ${a.ok ? `ok, ${a.eventCount ?? 0} events` : `failed (${a.reason ?? "unknown"})`}`}</li>
        ))}
      </ul>
    </div>
  );
}
