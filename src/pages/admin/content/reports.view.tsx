// The "Reports from visitors" card of /admin/content (see docs/console.md, "Reports from
// visitors"): open reports grouped by event (counts per kind, newest texts, first and last time)
// with "Mark cancelled and publish" and "Dismiss" per event. Spam-flagged reports are counted, not listed.
// Every action swaps the card; a refused one shows its error inline.

import { siteHref } from "../../../lib/links.ts";
import type { ReportGroup, ReportList } from "../../../lib/reports/moderation.ts";
import { REPORT_KINDS, type ReportKind } from "../../../lib/reports/report.ts";
import { Notice, Tile, Time, type CardNotice } from "../widgets.view.tsx";
import { editorLinkFor } from "./submissions.view.tsx";

export const REPORTS_CARD_ID = "reports-card";
const BASE = "/admin/content/reports";

const KIND_LABEL: Record<ReportKind, string> = { cancelled: "Cancelled", wrong_place: "Wrong place", wrong_time: "Wrong time", other: "Other" };

export interface ReportsCardProps {
  list: ReportList;
  notice?: CardNotice;
}

function Group(props: { g: ReportGroup }): JSX.Element {
  const { g } = props;
  const target = { "hx-target": `#${REPORTS_CARD_ID}`, "hx-swap": "outerHTML" };
  const key = encodeURIComponent(g.eventKey);
  return (
    <article class="submission report-group" data-report-event={g.eventKey}>
      <h3 safe>{g.title || g.eventKey}</h3>
      <p class="tile-note">
        <code safe>{g.eventKey}</code> · <a href={editorLinkFor(g.eventKey)}>Open in the editor</a>
      </p>
      <p safe>
        {`${g.total} ${g.total === 1 ? "report" : "reports"}: ${REPORT_KINDS.filter((k) => g.counts[k] > 0)
          .map((k) => `${KIND_LABEL[k]} ${g.counts[k]}`)
          .join(" · ")}`}
      </p>
      <p class="tile-note">
        First <Time value={g.firstAt} /> · last <Time value={g.lastAt} />
      </p>
      {g.texts.length ? (
        <ul class="report-texts">
          {g.texts.map((t) => (
            <li>
              <span class="badge" safe>
                {KIND_LABEL[t.kind] ?? t.kind}
              </span>{" "}
              <span safe>{t.text}</span> <small class="tile-note">(<Time value={t.createdAt} />)</small>
            </li>
          ))}
        </ul>
      ) : (
        ""
      )}
      <div class="card-actions">
        <form method="post" action={`${BASE}/${key}/cancel`} hx-post={`${BASE}/${key}/cancel`} {...target} hx-disabled-elt="find button">
          <button type="submit" class="button button-danger">
            Mark cancelled and publish
          </button>
        </form>
        <form method="post" action={`${BASE}/${key}/dismiss`} hx-post={`${BASE}/${key}/dismiss`} {...target} hx-disabled-elt="find button">
          <button type="submit" class="button">
            Dismiss
          </button>
        </form>
      </div>
      <p class="tile-note" safe>
        {g.cancelNote
          ? `Mark cancelled and publish shows this event as cancelled at once with the public reason “${g.cancelNote}” and resolves its reports; no other draft is published.`
          : "Mark cancelled and publish shows this event as cancelled at once, without a public reason, and resolves its reports; no other draft is published."}
      </p>
    </article>
  );
}

export function ReportsCard(props: ReportsCardProps): JSX.Element {
  const l = props.list;
  const target = { "hx-target": `#${REPORTS_CARD_ID}`, "hx-swap": "outerHTML" };
  return (
    <section id={REPORTS_CARD_ID} class="card" aria-labelledby="reports-title">
      <div class="card-head">
        <h2 id="reports-title">Reports from visitors</h2>
        <span class={l.openCount ? "badge badge-attention" : "badge"} safe>{`${l.openCount} open`}</span>
      </div>
      <div class="card-actions">
        <a class="button button-quiet" href={siteHref(`/admin/content#${REPORTS_CARD_ID}`)} hx-get={BASE} {...target}>
          Refresh
        </a>
      </div>
      <Notice notice={props.notice} />
      <div class="tiles">
        <Tile label="Open reports" value={l.openCount} />
        <Tile label="Events reported" value={l.eventCount} />
        <Tile label="Spam-flagged (hidden)" value={l.spamCount} />
      </div>
      {l.groups.length === 0 ? <p class="empty">No open reports.</p> : l.groups.map((g) => <Group g={g} />)}
    </section>
  );
}
