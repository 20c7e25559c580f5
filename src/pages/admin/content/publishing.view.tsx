// The Publishing card of /admin/content (see docs/console.md, "Publishing"): how many changes the
// working sheet holds that visitors do not see, a review of them against the published revision,
// Publish and Discard, and an event's status set in one action. It refreshes itself after every
// autosave of the editor (the `sheet-saved` event). The page sends it empty and it loads itself:
// counting the drafts reads the whole sheet, which the first usable grid must not wait for.

import { needsConfirmation, reviewCounts, type PublishReview, type UnpublishedChanges } from "../../../lib/admin/drafts.ts";
import { t } from "../../../lib/i18n/index.ts";
import { EVENT_STATUSES, STATUS_NOTE_MAX } from "../../../lib/sheet/status.ts";
import { Notice, Time, type CardNotice } from "../widgets.view.tsx";

/** The root id of the card; its actions swap it. */
export const PUBLISHING_ID = "publishing";
export const PUBLISHING_BASE = "/admin/content/publishing";

const STATUS_LABELS: Record<(typeof EVENT_STATUSES)[number], string> = {
  scheduled: "Scheduled (as listed)",
  cancelled: "Cancelled",
  moved: "Moved",
  full: "Full",
};

export interface PublishingCardProps {
  changes: UnpublishedChanges;
  /** Show the list of changed rows. */
  review?: boolean;
  notice?: CardNotice;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function Review(props: { changes: UnpublishedChanges }): JSX.Element {
  const c = props.changes;
  return (
    <div class="revision-diff" data-unpublished-review>
      <p safe>{`${c.rowsAdded} rows added, ${c.rowsChanged} changed, ${c.rowsDeleted} deleted since the last publish.`}</p>
      <ul class="diff-rows">
        {c.rows.map((row) => (
          <li class={`diff-${row.kind}`}>
            <strong safe>{row.title || "(no title)"}</strong> <code safe>{row.eventKey}</code> <span safe>{row.kind}</span>
            {row.kind === "changed" ? (
              <ul>
                {row.cells.map((cell) => (
                  <li>
                    <span safe>{cell.label}</span>: <del safe>{cell.before || "(empty)"}</del> → <ins safe>{cell.after || "(empty)"}</ins>
                  </li>
                ))}
              </ul>
            ) : (
              ""
            )}
          </li>
        ))}
      </ul>
      {c.truncated ? <p class="empty">Only the first rows are listed.</p> : ""}
    </div>
  );
}

/**
 * What publishing would rename or remove, stated before the Publish button: "3 events renamed,
 * 1 removed: review", each renamed row (old title → new title, its Event Key) and each removed one.
 */
function HeldReview(props: { review: PublishReview }): JSX.Element {
  const r = props.review;
  return (
    <div class="notice notice-warning" role="alert" data-publish-review data-renamed={String(r.rowsRenamed)} data-removed={String(r.rowsRemoved)}>
      <p>
        <strong safe>{t("publishing.held.review", { changes: reviewCounts(r) })}</strong>
      </p>
      <p safe>{t("publishing.held.intro")}</p>
      {r.renamed.length ? (
        <>
          <p safe>{t("publishing.held.renamedList")}</p>
          <ul data-renamed-list>
            {r.renamed.map((row) => (
              <li>
                <del safe>{row.before}</del> → <ins safe>{row.after || "(empty)"}</ins> <code safe>{row.eventKey}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        ""
      )}
      {r.removed.length ? (
        <>
          <p safe>{t("publishing.held.removedList")}</p>
          <ul data-removed-list>
            {r.removed.map((row) => (
              <li>
                <span safe>{row.title || "(no title)"}</span> <code safe>{row.eventKey}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        ""
      )}
    </div>
  );
}

/** The card as the page sends it: it loads its count once the page is shown. */
export function PublishingCardLoading(): JSX.Element {
  return (
    <section id={PUBLISHING_ID} class="card" aria-labelledby="publishing-title" aria-busy="true" hx-get={PUBLISHING_BASE} hx-trigger="load, sheet-saved from:body" hx-target={`#${PUBLISHING_ID}`} hx-swap="outerHTML">
      <div class="card-head">
        <h2 id="publishing-title">Publishing</h2>
        <p class="sheet-status" role="status">
          Counting unpublished changes…
        </p>
      </div>
    </section>
  );
}

/** The card. */
export function PublishingCard(props: PublishingCardProps): JSX.Element {
  const c = props.changes;
  const swap = { "hx-target": `#${PUBLISHING_ID}`, "hx-swap": "outerHTML" };
  // Renames under kept keys and removals are published only with the box ticked (the server checks it too).
  const held = needsConfirmation(c.review);
  return (
    <section id={PUBLISHING_ID} class="card" aria-labelledby="publishing-title" hx-get={PUBLISHING_BASE} hx-trigger="sheet-saved from:body" {...swap} data-unpublished={String(c.total)}>
      <div class="card-head">
        <h2 id="publishing-title">Publishing</h2>
        <p class="sheet-status" role="status" safe>
          {c.total === 0 ? "Everything is published" : `${plural(c.total, "unpublished change", "unpublished changes")}`}
        </p>
      </div>
      <p class="muted">
        Visitors see the published sheet{c.publishedAt ? " (last published " : ""}
        {c.publishedAt ? <Time value={c.publishedAt} /> : ""}
        {c.publishedAt ? <span safe>{` by ${c.publishedBy ?? "system"})`}</span> : ""}. The editor autosaves drafts; Publish checks the sheet and makes them public. Accepting a
        submission, setting an event's status, uploads, imports and restores are public at once and publish nothing else.
      </p>
      <Notice notice={props.notice} />
      {held ? <HeldReview review={c.review} /> : ""}
      <div class="card-actions">
        <form method="post" action={`${PUBLISHING_BASE}/publish`} hx-post={`${PUBLISHING_BASE}/publish`} {...swap}>
          {held ? (
            <label class="check">
              <input type="checkbox" name="confirm" value="1" required /> <span safe>{t("publishing.held.confirm")}</span>
            </label>
          ) : (
            ""
          )}
          <button type="submit" class="button button-small" disabled={c.total === 0}>
            Publish
          </button>
        </form>
        <form method="post" action={`${PUBLISHING_BASE}/discard`} hx-post={`${PUBLISHING_BASE}/discard`} {...swap} hx-confirm="Discard every unpublished change? The sheet goes back to what visitors see.">
          <button type="submit" class="button button-small button-danger" disabled={c.total === 0}>
            Discard changes
          </button>
        </form>
        {c.total > 0 && !props.review ? (
          <a class="button button-small button-quiet" href={`${PUBLISHING_BASE}?review=1`} hx-get={`${PUBLISHING_BASE}?review=1`} {...swap}>
            Review changes
          </a>
        ) : (
          ""
        )}
      </div>
      {props.review && c.total > 0 ? <Review changes={c} /> : ""}
      <h3>Event status</h3>
      <p class="muted">Public at once on every page and calendar feed. A cancelled event stays listed, struck through, with the reason.</p>
      <form class="status-form" method="post" action={`${PUBLISHING_BASE}/status`} hx-post={`${PUBLISHING_BASE}/status`} {...swap}>
        <label>
          Event (key or exact title) <input type="text" name="event" required maxlength={200} autocomplete="off" />
        </label>
        <label>
          Status{" "}
          <select name="status">
            {EVENT_STATUSES.map((status) => (
              <option value={status} selected={status === "cancelled"} safe>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Public reason <input type="text" name="note" maxlength={STATUS_NOTE_MAX} placeholder="Rain: moved indoors to the hall" />
        </label>
        <button type="submit" class="button button-small">
          Set status
        </button>
      </form>
    </section>
  );
}
