// The Revisions card of /admin/content (see docs/console.md, "Revisions"): every store revision
// with its trigger, actor, time and change counts; a readable diff of one against the current
// sheet; restore behind a confirmation.

import type { RevisionListing, SheetDiff } from "../../../lib/store/revisions.ts";
import { parisFormat } from "../../../lib/paris-time.ts";

/** The root id of the card; its actions swap it. */
export const SHEET_REVISIONS_ID = "sheet-revisions";
const BASE = "/admin/content/revisions";

const PARIS = parisFormat("en-GB", { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });

export interface RevisionsCardProps {
  revisions: RevisionListing[];
  /** The revision whose diff is open, with the diff. */
  open?: { id: string; diff: SheetDiff };
  message?: { text: string; kind: "ok" | "error" };
}

function Diff(props: { diff: SheetDiff }): JSX.Element {
  const d = props.diff;
  return (
    <div class="revision-diff">
      <p safe>
        {`Against the current sheet: ${d.rowsAdded} rows added, ${d.rowsDeleted} deleted, ${d.rowsChanged} changed since this revision.` +
          (d.columnsAdded.length ? ` Columns added: ${d.columnsAdded.join(", ")}.` : "") +
          (d.columnsDeleted.length ? ` Columns removed: ${d.columnsDeleted.join(", ")}.` : "")}
      </p>
      {d.rows.length === 0 ? (
        <p class="empty">The current sheet is the same as this revision.</p>
      ) : (
        <ul class="diff-rows">
          {d.rows.map((row) => (
            <li class={`diff-${row.change}`}>
              <strong safe>{row.title || "(no title)"}</strong> <code safe>{row.eventKey}</code> <span>{row.change === "added" ? "added since" : row.change === "deleted" ? "deleted since" : "changed since"}</span>
              {row.cells ? (
                <ul>
                  {row.cells.map((cell) => (
                    <li>
                      <span safe>{cell.column}</span>: <del safe>{cell.before || "(empty)"}</del> → <ins safe>{cell.after || "(empty)"}</ins>
                    </li>
                  ))}
                </ul>
              ) : (
                ""
              )}
            </li>
          ))}
        </ul>
      )}
      {d.truncated ? <p class="empty">Only the first rows are listed.</p> : ""}
    </div>
  );
}

/** The card. */
export function RevisionsCard(props: RevisionsCardProps): JSX.Element {
  return (
    <section id={SHEET_REVISIONS_ID} class="card" aria-labelledby="sheet-revisions-title">
      <div class="card-head">
        <h2 id="sheet-revisions-title">Revisions</h2>
        <button type="button" class="button button-small button-quiet" hx-get={BASE} hx-target={`#${SHEET_REVISIONS_ID}`} hx-swap="outerHTML">
          Refresh
        </button>
      </div>
      {props.message ? (
        <p class={props.message.kind === "ok" ? "notice" : "notice notice-warning"} role="status" safe>
          {props.message.text}
        </p>
      ) : (
        ""
      )}
      {props.revisions.length === 0 ? (
        <p class="empty">No revisions yet.</p>
      ) : (
        <ol class="revision-list">
          {props.revisions.map((r) => (
            <li class="revision">
              <div class="revision-line">
                <strong safe>{r.trigger}</strong> <time datetime={r.updatedAt.toISOString()} safe>{PARIS.format(r.updatedAt)}</time> <span class="jti" safe>{r.actor}</span>
                <span safe>{` · ${r.rowCount} rows · +${r.rowsAdded} −${r.rowsDeleted} ~${r.rowsChanged}`}</span>
                {r.changedColumns.length ? <span class="revision-columns" safe>{` · ${r.changedColumns.join(", ")}`}</span> : ""}
              </div>
              <div class="card-actions">
                <button type="button" class="button button-small button-quiet" hx-get={`${BASE}/${r.id}`} hx-target={`#${SHEET_REVISIONS_ID}`} hx-swap="outerHTML">
                  Show changes
                </button>
                <button
                  type="button"
                  class="button button-small button-danger"
                  hx-post={`${BASE}/${r.id}/restore`}
                  hx-target={`#${SHEET_REVISIONS_ID}`}
                  hx-swap="outerHTML"
                  hx-confirm="Restore this revision? A backup of the current sheet is taken first, then the homepage is revalidated."
                >
                  Restore
                </button>
              </div>
              {props.open?.id === r.id ? <Diff diff={props.open.diff} /> : ""}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

