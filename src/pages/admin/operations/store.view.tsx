// The Event Store Controls, Recovery and Activity cards of /admin/operations (see
// docs/console-operations.md). Each card is made of regions that actions swap on their own, so a
// chosen upload file survives its check; long actions start a background job whose progress bar
// appears in the Activity card, and a finished job refreshes the figures (event `ops-refresh`).

import { siteHref } from "../../../lib/links.ts";
import type { BackupSummary } from "../../../lib/store/backups.ts";
import type { UploadReport } from "../../../lib/store/csv-transfer.ts";
import type { SheetPreviewOutcome } from "../../../lib/spreadsheet-import/import.ts";
import type { JobView } from "../../../lib/admin/jobs.ts";
import { JOB_PANEL_ID, JobProgress, Notice, Tile, parisLabel, Time, type CardNotice } from "../widgets.view.tsx";

export const STORE_CARD_ID = "ops-store";
export const STORE_TILES_ID = "ops-store-tiles";
export const UPLOAD_REPORT_ID = "upload-report";
export const IMPORT_REGION_ID = "ops-import";
export const BACKUPS_REGION_ID = "ops-backups";
export const RECOVERY_RESULT_ID = "ops-recovery-result";

/** The store facts the tiles show. */
export interface StoreFacts {
  rowCount: number;
  updatedAt: string | null;
  updatedBy: string | null;
  origin: string | null;
  revision: number;
}

export function StoreTiles(props: { facts: StoreFacts; newestBackup?: BackupSummary }): JSX.Element {
  const f = props.facts;
  return (
    <div id={STORE_TILES_ID} class="tiles" hx-get={siteHref("/admin/operations/store/tiles")} hx-trigger="ops-refresh from:body" hx-swap="outerHTML">
      <Tile label="Rows" value={f.rowCount} />
      <Tile label="Updated" value={parisLabel(f.updatedAt)} note={f.updatedBy ? `by ${f.updatedBy}` : undefined} />
      <Tile label="Origin" value={f.origin ?? "never written"} />
      <Tile label="Last backup" value={props.newestBackup ? parisLabel(props.newestBackup.createdAt) : "none"} note={props.newestBackup?.trigger} />
    </div>
  );
}

/** The report of an uploaded file: errors (nothing written), warnings, and the write button when clean. */
export function UploadResult(props: { report?: UploadReport; notice?: CardNotice; canWrite?: boolean }): JSX.Element {
  const r = props.report;
  return (
    <div id={UPLOAD_REPORT_ID} aria-live="polite">
      <Notice notice={props.notice} />
      {r ? (
        <>
          <p safe>{`${r.rowCount} rows, ${r.columnCount} columns.`}</p>
          {r.errors.length > 0 ? (
            <ul class="report report-error" aria-label="Blocking problems">
              {r.errors.map((e) => (
                <li safe>{e.message}</li>
              ))}
            </ul>
          ) : (
            ""
          )}
          {r.warnings.length > 0 ? (
            <ul class="report" aria-label="Warnings">
              {r.warnings.map((w) => (
                <li safe>{w.message}</li>
              ))}
            </ul>
          ) : (
            ""
          )}
        </>
      ) : (
        ""
      )}
      {props.canWrite && r ? (
        <button type="submit" name="mode" value="write" class="button button-danger" safe>
          {`Upload CSV to Store (${r.rowCount} rows, replaces the store)`}
        </button>
      ) : (
        ""
      )}
    </div>
  );
}

/** The preview's issues: blocking ones first, then warnings (the first 50; the counts cover them all). */
function PreviewIssues(props: { preview: Extract<SheetPreviewOutcome, { ok: true }> }): JSX.Element {
  const p = props.preview;
  const blocking = p.issues.filter((i) => i.blocking);
  const warnings = p.issues.filter((i) => !i.blocking);
  return (
    <>
      <p safe>{`${p.blockingCount} blocking ${p.blockingCount === 1 ? "problem" : "problems"}, ${p.warningCount} ${p.warningCount === 1 ? "warning" : "warnings"}.`}</p>
      {blocking.length > 0 ? (
        <ul class="report report-error" aria-label="Blocking problems">
          {blocking.map((e) => (
            <li safe>{e.message}</li>
          ))}
        </ul>
      ) : (
        <p>No blocking issues.</p>
      )}
      {warnings.length > 0 ? (
        <ul class="report" aria-label="Warnings">
          {warnings.map((w) => (
            <li safe>{w.message}</li>
          ))}
        </ul>
      ) : (
        ""
      )}
    </>
  );
}

export function ImportRegion(props: { preview?: SheetPreviewOutcome; notice?: CardNotice }): JSX.Element {
  const p = props.preview;
  const blocked = !p || !p.ok || !p.canImport;
  return (
    <div id={IMPORT_REGION_ID}>
      <h3>Spreadsheet</h3>
      <Notice notice={props.notice} />
      {p && !p.ok ? (
        <p class="notice notice-error" role="alert" safe>
          {`Preview failed: ${p.error}`}
        </p>
      ) : (
        ""
      )}
      {p && p.ok ? (
        <div class="import-preview">
          <p safe>{`${p.totalRows} rows from the spreadsheet (${p.source}).`}</p>
          <p safe>{`Read ${parisLabel(p.fetchedAt)}; rows ${p.rows.length ? p.offset + 1 : 0}–${p.offset + p.rows.length} shown.`}</p>
          <PreviewIssues preview={p} />
          <div class="table-scroll">
            <table class="data-table">
              <thead>
                <tr>
                  {p.columns.slice(0, 8).map((c) => (
                    <th scope="col" safe>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {p.rows.map((row) => (
                  <tr>
                    {row.slice(0, 8).map((cell) => (
                      <td safe>{cell}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        ""
      )}
      <div class="card-actions">
        <form method="post" action={siteHref("/admin/operations/store/import/preview")} hx-post={siteHref("/admin/operations/store/import/preview")} hx-target={`#${IMPORT_REGION_ID}`} hx-swap="outerHTML" hx-disabled-elt="find button">
          <button type="submit" class="button">
            Preview Spreadsheet
          </button>
        </form>
        <form method="post" action={siteHref("/admin/operations/store/import")} hx-post={siteHref("/admin/operations/store/import")} hx-target={`#${JOB_PANEL_ID}`} hx-swap="afterbegin">
          <button
            type="submit"
            class="button button-danger"
            disabled={blocked}
            title={blocked ? (p && p.ok ? `Fix the blocking issues of the preview first: ${p.importBlockedReason}` : "Preview the spreadsheet first") : undefined}
          >
            Import Spreadsheet
          </button>
        </form>
      </div>
    </div>
  );
}

function backupLabel(b: BackupSummary): string {
  return `${parisLabel(b.createdAt)} | ${b.trigger} | ${b.rowCount} rows`;
}

export function BackupsRegion(props: { backups: BackupSummary[]; notice?: CardNotice }): JSX.Element {
  return (
    <div id={BACKUPS_REGION_ID} hx-get={siteHref("/admin/operations/store/backups")} hx-trigger="ops-refresh from:body" hx-swap="outerHTML">
      <h3>Backups</h3>
      <Notice notice={props.notice} />
      <div class="card-actions">
        <form method="post" action={siteHref("/admin/operations/store/backups")} hx-post={siteHref("/admin/operations/store/backups")} hx-target={`#${BACKUPS_REGION_ID}`} hx-swap="outerHTML" hx-disabled-elt="find button">
          <button type="submit" class="button">
            Backup Now
          </button>
        </form>
        <details class="confirm">
          <summary class="button button-danger">Restore Latest Backup</summary>
          <div class="confirm-panel">
            <p>The store and both placement schedules are replaced by the newest backup. A pre-restore snapshot is taken first.</p>
            <form method="post" action={siteHref("/admin/operations/store/restore")} hx-post={siteHref("/admin/operations/store/restore")} hx-target={`#${JOB_PANEL_ID}`} hx-swap="afterbegin">
              <button type="submit" class="button button-danger" disabled={props.backups.length === 0}>
                Yes, restore the latest backup
              </button>
            </form>
          </div>
        </details>
      </div>
      {props.backups.length === 0 ? (
        <p class="empty">No backups yet.</p>
      ) : (
        <form class="ops-form" method="post" action={siteHref("/admin/operations/store/restore")} hx-post={siteHref("/admin/operations/store/restore")} hx-target={`#${JOB_PANEL_ID}`} hx-swap="afterbegin">
          <label for="snapshot-picker">Snapshot</label>
          <select id="snapshot-picker" name="id">
            {props.backups.map((b) => (
              <option value={b.id} safe>
                {backupLabel(b)}
              </option>
            ))}
          </select>
          <details class="confirm">
            <summary class="button button-danger">Restore Selected Snapshot</summary>
            <div class="confirm-panel">
              <p>The store and both schedules are replaced by the chosen snapshot, after a pre-restore snapshot.</p>
              <button type="submit" class="button button-danger">
                Yes, restore the selected snapshot
              </button>
            </div>
          </details>
        </form>
      )}
    </div>
  );
}

export interface StoreCardProps {
  facts: StoreFacts;
  backups: BackupSummary[];
}

export function StoreCard(props: StoreCardProps): JSX.Element {
  return (
    <section id={STORE_CARD_ID} class="card" aria-labelledby="ops-store-title">
      <div class="card-head">
        <h2 id="ops-store-title">Event Store Controls</h2>
        <span class="badge" safe>{`revision ${props.facts.revision}`}</span>
      </div>
      <StoreTiles facts={props.facts} newestBackup={props.backups[0]} />
      <h3>Upload CSV to Store</h3>
      <form
        class="ops-form upload-form"
        method="post"
        action={siteHref("/admin/operations/store/upload")}
        enctype="multipart/form-data"
        hx-post={siteHref("/admin/operations/store/upload")}
        hx-encoding="multipart/form-data"
        hx-target={`#${UPLOAD_REPORT_ID}`}
        hx-swap="outerHTML"
      >
        <label for="upload-file">CSV file</label>
        <input id="upload-file" type="file" name="file" accept=".csv,text/csv" required />
        <button type="submit" name="mode" value="check" class="button">
          Check file
        </button>
        <UploadResult />
      </form>
      <p>
        <a class="button button-quiet" href={siteHref("/admin/operations/store/export")} download="">
          Export Store CSV
        </a>
      </p>
      <ImportRegion />
      <BackupsRegion backups={props.backups} />
    </section>
  );
}

export function RecoveryResult(props: { notice?: CardNotice }): JSX.Element {
  return (
    <div id={RECOVERY_RESULT_ID} aria-live="polite">
      <Notice notice={props.notice} />
    </div>
  );
}

export function RecoveryCard(): JSX.Element {
  const job = { "hx-target": `#${JOB_PANEL_ID}`, "hx-swap": "afterbegin" };
  const result = { "hx-target": `#${RECOVERY_RESULT_ID}`, "hx-swap": "outerHTML" };
  return (
    <section id="ops-recovery" class="card" aria-labelledby="ops-recovery-title">
      <div class="card-head">
        <h2 id="ops-recovery-title">Recovery</h2>
      </div>
      <p>Every action that replaces or empties the store takes a pre-restore snapshot first.</p>
      <RecoveryResult />
      <div class="card-actions">
        <form method="post" action={siteHref("/admin/operations/recovery/rebuild-coordinates")} hx-post={siteHref("/admin/operations/recovery/rebuild-coordinates")} {...job}>
          <button type="submit" class="button">
            Rebuild coordinates
          </button>
        </form>
        <details class="confirm">
          <summary class="button">Reset coordinate cache</summary>
          <div class="confirm-panel">
            <p>Every cached venue position is deleted; the next read falls back to arrondissement centres until venues are geocoded again.</p>
            <form method="post" action={siteHref("/admin/operations/recovery/reset-coordinates")} hx-post={siteHref("/admin/operations/recovery/reset-coordinates")} {...result}>
              <button type="submit" class="button button-danger">
                Yes, reset the cache
              </button>
            </form>
          </div>
        </details>
        <details class="confirm">
          <summary class="button">Load sample sheet</summary>
          <div class="confirm-panel">
            <p>The store is replaced by the local events file (data/events.csv), after a pre-restore snapshot.</p>
            <form method="post" action={siteHref("/admin/operations/recovery/load-local-csv")} hx-post={siteHref("/admin/operations/recovery/load-local-csv")} {...job}>
              <button type="submit" class="button button-danger">
                Yes, load the sample sheet
              </button>
            </form>
          </div>
        </details>
      </div>
      <form class="ops-form" method="post" action={siteHref("/admin/operations/recovery/clear-store")} hx-post={siteHref("/admin/operations/recovery/clear-store")} {...result}>
        <label for="clear-confirm">Type CLEAR STORE to empty the store</label>
        <input id="clear-confirm" type="text" name="confirm" autocomplete="off" placeholder="CLEAR STORE" />
        <button type="submit" class="button button-danger">
          Clear store
        </button>
      </form>
    </section>
  );
}

/** The Activity card: background jobs of this page, newest first. */
export function ActivityCard(props: { jobs: JobView[] }): JSX.Element {
  return (
    <section class="card" aria-labelledby="ops-activity-title">
      <div class="card-head">
        <h2 id="ops-activity-title">Activity</h2>
      </div>
      <div id={JOB_PANEL_ID} aria-live="polite">
        {props.jobs.map((job) => (
          <JobProgress job={job} />
        ))}
      </div>
      {props.jobs.length === 0 ? <p class="empty">Long actions (imports, restores, coordinate rebuilds) show their progress here.</p> : ""}
    </section>
  );
}

export { Time };
