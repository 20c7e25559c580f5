// The Email outbox and the Activity timeline of /admin/operations (see docs/email.md and
// docs/console.md, "Activity"): counts per status, the messages with Resend, one message read in
// full (both parts), and the admin actions with their filters.

import Html from "@kitajs/html";
import type { ActivityFilter, ActivityRecord } from "../../../lib/admin/activity.ts";
import { ACTIVITY_ACTIONS } from "../../../lib/admin/activity.ts";
import type { OutboxCounts, OutboxMessage, OutboxStatus } from "../../../lib/mail/outbox.ts";
import { OUTBOX_STATUSES } from "../../../lib/mail/outbox.ts";
import type { RenderedMessage } from "../../../lib/mail/templates.ts";
import { parisFormat } from "../../../lib/paris-time.ts";

export const OUTBOX_PATH = "/admin/operations/outbox";
export const ACTIVITY_PATH = "/admin/operations/activity";
export const OUTBOX_CARD_ID = "ops-outbox";

const PARIS = parisFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });

function When(props: { at: Date | null | undefined }): JSX.Element {
  if (!props.at) return <span class="muted">–</span>;
  return (
    <time datetime={props.at.toISOString()} safe>
      {PARIS.format(props.at)}
    </time>
  );
}

const STATUS_LABELS: Record<OutboxStatus, string> = { queued: "Queued", sending: "Sending", sent: "Sent", failed: "Failed", cancelled: "Cancelled" };

function statusLabel(status: string): string {
  return STATUS_LABELS[status as OutboxStatus] ?? status;
}

export interface OutboxCardProps {
  messages: OutboxMessage[];
  counts: OutboxCounts;
  status?: OutboxStatus;
  smtpConfigured: boolean;
  notice?: { kind: "ok" | "error"; text: string };
}

/** The outbox card: tiles per status, the filter links, the list with View and Resend. */
export function OutboxCard(props: OutboxCardProps): JSX.Element {
  return (
    <section id={OUTBOX_CARD_ID} class="card outbox-card" aria-labelledby="ops-outbox-title">
      <div class="card-head">
        <h2 id="ops-outbox-title">Email outbox</h2>
        <span class="badge" safe>
          {props.smtpConfigured ? "Sending over SMTP" : "SMTP_URL not set"}
        </span>
      </div>
      {props.smtpConfigured ? (
        ""
      ) : (
        <p class="notice notice-warn" role="status">
          SMTP_URL is not set: messages stay queued here and nothing is sent. Open one to read it; once SMTP_URL is set the queue is sent.
        </p>
      )}
      {props.notice ? (
        <p class={props.notice.kind === "ok" ? "notice notice-ok" : "notice notice-error"} role={props.notice.kind === "ok" ? "status" : "alert"} safe>
          {props.notice.text}
        </p>
      ) : (
        ""
      )}
      <nav class="outbox-filters" aria-label="Messages by status">
        <a href={OUTBOX_PATH} aria-current={props.status === undefined ? "page" : undefined}>
          {Html.escapeHtml(`All (${props.counts.total})`)}
        </a>
        {OUTBOX_STATUSES.map((s) => (
          <a href={`${OUTBOX_PATH}?status=${s}`} aria-current={props.status === s ? "page" : undefined} data-status={s}>
            {Html.escapeHtml(`${STATUS_LABELS[s]} (${props.counts[s]})`)}
          </a>
        ))}
      </nav>
      {props.messages.length === 0 ? (
        <p class="empty">No messages.</p>
      ) : (
        <table class="outbox-table">
          <thead>
            <tr>
              <th scope="col">Queued</th>
              <th scope="col">Message</th>
              <th scope="col">Language</th>
              <th scope="col">To</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Sent</th>
              <th scope="col">Last error</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.messages.map((m) => (
              <tr data-message-id={m.id} data-status={m.status}>
                <td>
                  <When at={m.createdAt} />
                </td>
                <td safe>{m.kind}</td>
                <td safe>{m.language}</td>
                <td safe>{m.recipient}</td>
                <td>
                  <span class={`badge status-${m.status}`} safe>
                    {statusLabel(m.status)}
                  </span>
                  {m.status === "queued" && m.nextAttemptAt.getTime() > m.createdAt.getTime() + 1000 ? (
                    <>
                      {" "}
                      <span class="muted">
                        from <When at={m.nextAttemptAt} />
                      </span>
                    </>
                  ) : (
                    ""
                  )}
                </td>
                <td safe>{String(m.attempts)}</td>
                <td>
                  <When at={m.sentAt} />
                </td>
                <td class="muted" safe>
                  {m.lastError ?? ""}
                </td>
                <td>
                  <a href={`${OUTBOX_PATH}/${m.id}`}>View</a>
                  {m.status === "failed" || m.status === "sent" || m.status === "cancelled" ? (
                    <form method="post" action={`${OUTBOX_PATH}/${m.id}/resend`} class="inline-form">
                      <button type="submit" class="button button-small" hx-post={`${OUTBOX_PATH}/${m.id}/resend`} hx-target={`#${OUTBOX_CARD_ID}`} hx-swap="outerHTML">
                        Resend
                      </button>
                    </form>
                  ) : (
                    ""
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href={ACTIVITY_PATH}>Activity timeline →</a>
      </p>
    </section>
  );
}

/** One message in full: its envelope, the text part and the HTML part (as source). */
export function OutboxMessageCard(props: { message: OutboxMessage; rendered: RenderedMessage; messageId: string; from: string }): JSX.Element {
  const m = props.message;
  return (
    <section class="card outbox-message" aria-labelledby="outbox-message-title">
      <div class="card-head">
        <h2 id="outbox-message-title" safe>
          {props.rendered.subject}
        </h2>
        <span class={`badge status-${m.status}`} safe>
          {statusLabel(m.status)}
        </span>
      </div>
      <dl class="facts">
        <dt>From</dt>
        <dd safe>{props.from}</dd>
        <dt>To</dt>
        <dd safe>{m.recipient}</dd>
        <dt>Message-ID</dt>
        <dd safe>{props.messageId}</dd>
        <dt>Kind</dt>
        <dd safe>{`${m.kind} (${m.language})`}</dd>
        <dt>Attempts</dt>
        <dd safe>{String(m.attempts)}</dd>
        <dt>Last error</dt>
        <dd safe>{m.lastError ?? "–"}</dd>
      </dl>
      <h3>Text part</h3>
      <pre class="mail-text" safe>
        {props.rendered.text}
      </pre>
      <details>
        <summary>HTML part (source)</summary>
        <pre class="mail-html" safe>
          {props.rendered.html}
        </pre>
      </details>
      <p>
        <a href={OUTBOX_PATH}>← Email outbox</a>
      </p>
    </section>
  );
}

/** The timeline with its filter form (GET, so a filtered view is a link). */
export function ActivityCard(props: { entries: ActivityRecord[]; filter: ActivityFilter; error?: string }): JSX.Element {
  const f = props.filter;
  const day = (d?: Date) => (d ? d.toISOString().slice(0, 10) : "");
  return (
    <section id="ops-timeline" class="card activity-card" aria-labelledby="ops-timeline-title">
      <div class="card-head">
        <h2 id="ops-timeline-title">Activity timeline</h2>
        <span class="badge" safe>
          {`${props.entries.length} shown`}
        </span>
      </div>
      <form method="get" action={ACTIVITY_PATH} class="filter-row">
        <label>
          Action{" "}
          <select name="action">
            <option value="">Any</option>
            {[...new Set(ACTIVITY_ACTIONS.map((a) => a.split(".")[0]))].map((area) => (
              <option value={area} selected={f.action === area}>
                {Html.escapeHtml(`${area} (all)`)}
              </option>
            ))}
            {ACTIVITY_ACTIONS.map((a) => (
              <option value={a} selected={f.action === a}>
                {Html.escapeHtml(a)}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Actor <input name="actor" value={f.actor ?? ""} size="14" />
        </label>{" "}
        <label>
          Target <input name="target" value={f.targetId ?? ""} size="20" />
        </label>{" "}
        <label>
          Outcome{" "}
          <select name="outcome">
            <option value="">Any</option>
            <option value="ok" selected={f.outcome === "ok"}>
              ok
            </option>
            <option value="failed" selected={f.outcome === "failed"}>
              failed
            </option>
          </select>
        </label>{" "}
        <label>
          From <input type="date" name="from" value={day(f.from)} />
        </label>{" "}
        <label>
          To <input type="date" name="to" value={day(f.to)} />
        </label>{" "}
        <button type="submit" class="button button-small">
          Filter
        </button>
      </form>
      {props.error ? (
        <p class="notice notice-error" role="alert" safe>
          {props.error}
        </p>
      ) : (
        ""
      )}
      {props.entries.length === 0 ? (
        <p class="empty">No actions match.</p>
      ) : (
        <table class="activity-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {props.entries.map((e) => (
              <tr data-action={e.action} data-outcome={e.outcome}>
                <td>
                  <When at={e.at} />
                </td>
                <td safe>{e.actor}</td>
                <td safe>{e.action}</td>
                <td safe>{`${e.targetType}${e.targetId ? ` ${e.targetId}` : ""}`}</td>
                <td>
                  <span class={e.outcome === "ok" ? "badge status-sent" : "badge status-failed"} safe>
                    {e.outcome}
                  </span>
                </td>
                <td class="muted" safe>
                  {e.detail ? JSON.stringify(e.detail) : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <a href={OUTBOX_PATH}>Email outbox →</a>
      </p>
    </section>
  );
}

/** The operations page's door to the outbox and the timeline, with the outbox counts. */
export function MailSummaryCard(props: { counts: OutboxCounts; smtpConfigured: boolean }): JSX.Element {
  return (
    <section id="ops-mail" class="card" aria-labelledby="ops-mail-title">
      <div class="card-head">
        <h2 id="ops-mail-title">Email and activity</h2>
        <span class="badge" safe>
          {props.smtpConfigured ? "Sending over SMTP" : "SMTP_URL not set"}
        </span>
      </div>
      <p safe>{`Queued ${props.counts.queued} · Sending ${props.counts.sending} · Sent ${props.counts.sent} · Failed ${props.counts.failed} · Cancelled ${props.counts.cancelled}`}</p>
      <p>
        <a class="button button-small" href={OUTBOX_PATH}>
          Email outbox
        </a>{" "}
        <a class="button button-small" href={ACTIVITY_PATH}>
          Activity timeline
        </a>
      </p>
    </section>
  );
}
