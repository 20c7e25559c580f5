// The Event Submissions card of /admin/content (see docs/console-operations.md, "Event
// submissions"): Open/Closed switch, Refresh, tiles, tabs per status, Accept and Decline on pending
// items, spam signals on declined ones. Every action swaps the card; a refused one shows its error
// inline ("Already reviewed by another admin" when someone else was first).

import { siteHref } from "../../../lib/links.ts";
import type { SubmissionDashboard, SubmissionRecord, SubmissionStatus } from "../../../lib/submissions/moderation.ts";
import { DECLINE_REASONS, SUBMISSION_STATUSES } from "../../../lib/submissions/moderation.ts";
import { Notice, Tile, Time, type CardNotice } from "../widgets.view.tsx";
import type { SubmissionReview } from "../../../lib/submissions/sanity.ts";
import type { EditLink } from "../../../lib/submissions/host-links.ts";

/** The failed checks and likely duplicates of one submission. */
function Review(props: { review?: SubmissionReview }): JSX.Element {
  const r = props.review;
  if (!r || (r.issues.length === 0 && r.duplicates.length === 0)) return "";
  return (
    <div class="submission-review">
      {r.issues.length > 0 ? (
        <ul class="submission-checks" aria-label="Checks">
          {r.issues.map((i) => (
            <li class="check-failed" data-check={i.code} safe>
              {i.message}
            </li>
          ))}
        </ul>
      ) : (
        ""
      )}
      {r.duplicates.length > 0 ? (
        <p class="submission-duplicates">
          Likely duplicate of{" "}
          {r.duplicates.map((d, n) => (
            <>
              {n > 0 ? ", " : ""}
              <a href={d.href} data-duplicate={d.kind} safe>
                {`${d.kind === "event" ? "listed event" : "submission"} “${d.name}” (${d.date}${d.startTime ? ` ${d.startTime}` : ""})`}
              </a>
            </>
          ))}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export const SUBMISSIONS_CARD_ID = "submissions-card";
const BASE = "/admin/content/submissions";

const REASON_LABEL: Record<string, string> = {
  not_enough_information: "Not enough information",
  duplicate_submission: "Duplicate submission",
  event_not_relevant: "Event not relevant",
  unable_to_verify: "Unable to verify",
  spam_signal: "Spam signal",
  other: "Other (explain below)",
  accepted: "Accepted",
};

const TAB_LABEL: Record<SubmissionStatus, string> = { pending: "Pending", accepted: "Accepted", declined: "Declined" };

export interface SubmissionsCardProps {
  status: SubmissionStatus;
  submissions: SubmissionRecord[];
  counts: SubmissionDashboard;
  enabled: boolean;
  notice?: CardNotice;
  /** The key of an event just accepted, linked to the editor. */
  acceptedKey?: string;
  /** Per submission id: failed sanity checks and likely duplicates. */
  reviews?: Map<string, SubmissionReview>;
  /** Per accepted submission id: its host's current edit link (none when revoked). */
  links?: Map<string, EditLink>;
}

/** The host's edit link of an accepted event: when it was issued and last used, Revoke and Issue a new link. */
function EditLinkLine(props: { s: SubmissionRecord; link?: EditLink }): JSX.Element {
  const { s, link } = props;
  const target = { "hx-target": `#${SUBMISSIONS_CARD_ID}`, "hx-swap": "outerHTML" };
  const base = `${BASE}/${s.id}/edit-link`;
  return (
    <div class="card-actions edit-link-line" data-edit-link={link ? "active" : "none"}>
      {link ? (
        <span class="tile-note">
          Host edit link issued <Time value={link.createdAt} />, last used <Time value={link.lastUsedAt} />
        </span>
      ) : (
        <span class="tile-note">No working host edit link</span>
      )}
      {link ? (
        <form method="post" action={`${base}/revoke`} hx-post={`${base}/revoke`} {...target} hx-disabled-elt="find button">
          <button type="submit" class="button button-danger">
            Revoke edit link
          </button>
        </form>
      ) : (
        ""
      )}
      <form method="post" action={`${base}/issue`} hx-post={`${base}/issue`} {...target} hx-disabled-elt="find button">
        <button type="submit" class="button">
          Issue a new link
        </button>
      </form>
    </div>
  );
}

/** Where the editor shows one event (its key in the editor's search). */
export function editorLinkFor(eventKey: string): string {
  return `/admin/content?search=${encodeURIComponent(eventKey)}#sheet-editor`;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

const FIELDS: [string, string][] = [
  ["date", "Date"],
  ["startTime", "Start"],
  ["endTime", "End"],
  ["location", "Location"],
  ["arrondissement", "Arrondissement"],
  ["genre", "Genre"],
  ["price", "Price"],
  ["age", "Age"],
  ["indoorOutdoor", "Setting"],
  ["notes", "Notes"],
];

function SpamSignals(props: { signals: Record<string, unknown> | null }): JSX.Element {
  const s = props.signals;
  if (!s) return "";
  const parts: string[] = [];
  if (s.honeypotFilled === true) parts.push("hidden field filled");
  if (s.completedTooFast === true) parts.push(`form completed in ${typeof s.completionSeconds === "number" ? `${s.completionSeconds} s` : "too little time"}`);
  if (parts.length === 0) return "";
  return (
    <p class="spam-signals" safe>
      {`Spam signals: ${parts.join("; ")}`}
    </p>
  );
}

function Item(props: { s: SubmissionRecord; review?: SubmissionReview; link?: EditLink }): JSX.Element {
  const { s } = props;
  const p = s.payload;
  const target = { "hx-target": `#${SUBMISSIONS_CARD_ID}`, "hx-swap": "outerHTML" };
  return (
    <article class="submission" id={`submission-${s.id}`} data-submission-id={s.id}>
      <h3 safe>{text(p.eventName) || "(no name)"}</h3>
      <Review review={props.review} />
      <p class="tile-note">
        Submitted <Time value={s.createdAt} /> by <span safe>{s.hostEmail}</span>
      </p>
      <dl>
        {FIELDS.filter(([key]) => text(p[key])).map(([key, label]) => (
          <>
            <dt safe>{label}</dt>
            <dd safe>{text(p[key])}</dd>
          </>
        ))}
        {text(p.proofLink) ? (
          <>
            <dt>Proof link</dt>
            <dd>
              <a href={text(p.proofLink)} rel="noopener noreferrer nofollow" target="_blank" safe>
                {text(p.proofLink)}
              </a>
            </dd>
          </>
        ) : (
          ""
        )}
      </dl>
      {s.status === "accepted" && s.acceptedEventKey ? (
        <p>
          Event key <code safe>{s.acceptedEventKey}</code> ·{" "}
          <a href={editorLinkFor(s.acceptedEventKey)} safe>
            Open in the editor
          </a>
        </p>
      ) : (
        ""
      )}
      {s.status === "accepted" && s.acceptedEventKey ? <EditLinkLine s={s} link={props.link} /> : ""}
      {s.status === "declined" ? (
        <>
          <p safe>{`Declined: ${REASON_LABEL[s.reviewReason ?? ""] ?? s.reviewReason ?? ""}${s.reviewNote ? ` – ${s.reviewNote}` : ""}`}</p>
          <SpamSignals signals={s.spamSignals ?? null} />
        </>
      ) : (
        ""
      )}
      {s.status !== "pending" ? (
        <p class="tile-note">
          Reviewed <Time value={s.reviewedAt} /> by <span safe>{s.reviewedBy ?? "–"}</span>
        </p>
      ) : (
        <div class="card-actions">
          <form method="post" action={`${BASE}/${s.id}/accept`} hx-post={`${BASE}/${s.id}/accept`} {...target} hx-disabled-elt="find button">
            <button type="submit" class="button">
              Accept
            </button>
          </form>
          <form class="ops-form" method="post" action={`${BASE}/${s.id}/decline`} hx-post={`${BASE}/${s.id}/decline`} {...target}>
            <label for={`reason-${s.id}`}>Reason</label>
            <select id={`reason-${s.id}`} name="reason" required>
              <option value="">Choose…</option>
              {DECLINE_REASONS.map((r) => (
                <option value={r} safe>
                  {REASON_LABEL[r]}
                </option>
              ))}
            </select>
            <label for={`note-${s.id}`} class="visually-hidden">
              Note
            </label>
            <input id={`note-${s.id}`} type="text" name="note" maxlength="500" placeholder="Note (needed for Other)" />
            <button type="submit" class="button button-danger">
              Decline
            </button>
          </form>
        </div>
      )}
    </article>
  );
}

export function SubmissionsCard(props: SubmissionsCardProps): JSX.Element {
  const c = props.counts;
  const target = { "hx-target": `#${SUBMISSIONS_CARD_ID}`, "hx-swap": "outerHTML" };
  return (
    <section id={SUBMISSIONS_CARD_ID} class="card" aria-labelledby="submissions-title">
      <div class="card-head">
        <h2 id="submissions-title">Event Submissions</h2>
        <span class={props.enabled ? "badge" : "badge badge-attention"}>{props.enabled ? "Open" : "Closed"}</span>
      </div>
      <div class="card-actions">
        <form method="post" action={`${BASE}/settings`} hx-post={`${BASE}/settings`} {...target}>
          <input type="hidden" name="enabled" value={props.enabled ? "false" : "true"} />
          <input type="hidden" name="status" value={props.status} />
          <button type="submit" class="button" role="switch" aria-checked={props.enabled ? "true" : "false"}>
            {props.enabled ? "Close submissions" : "Open submissions"}
          </button>
        </form>
        <a class="button button-quiet" href={siteHref(`/admin/content?status=${props.status}#${SUBMISSIONS_CARD_ID}`)} hx-get={`${BASE}?status=${props.status}`} {...target}>
          Refresh
        </a>
      </div>
      <Notice notice={props.notice}>
        {props.acceptedKey ? (
          <>
            {" "}
            <code safe>{props.acceptedKey}</code>{" "}
            <a href={editorLinkFor(props.acceptedKey)}>Open in the editor</a>
          </>
        ) : (
          ""
        )}
      </Notice>
      <div class="tiles">
        <Tile label="Pending" value={c.pendingCount} />
        <Tile label="Accepted 7d" value={c.acceptedLast7Days} />
        <Tile label="Declined 7d" value={c.declinedLast7Days} />
        <Tile label="Total" value={c.totalCount} />
      </div>
      <nav class="admin-tabs" aria-label="Submission status">
        {SUBMISSION_STATUSES.map((status) => (
          <a
            href={siteHref(`/admin/content?status=${status}#${SUBMISSIONS_CARD_ID}`)}
            class={status === props.status ? "tab tab-current" : "tab"}
            aria-current={status === props.status ? "page" : undefined}
            hx-get={`${BASE}?status=${status}`}
            {...target}
          >
            <span safe>{TAB_LABEL[status]}</span>
          </a>
        ))}
      </nav>
      {props.submissions.length === 0 ? (
        <p class="empty" safe>{`No ${TAB_LABEL[props.status].toLowerCase()} submissions.`}</p>
      ) : (
        props.submissions.map((s) => <Item s={s} review={props.reviews?.get(s.id)} link={props.links?.get(s.id)} />)
      )}
    </section>
  );
}
