// The Action Center (see docs/console.md, "Action Center"): the header badge of every console page
// and the overview's panel, each with the count of every kind of waiting work and a link to the
// card that handles it. Both refresh themselves: htmx polls their fragment every 10 s
// (action-center.routes.tsx), from the one reading of lib/admin/status.ts (`countActionItems`).

import Html from "@kitajs/html";
import { siteHref } from "../../lib/links.ts";
import { actionTotal, ACTION_KINDS, type ActionCounts, type ActionKind } from "../../lib/admin/status.ts";
import { REPORTS_CARD_ID } from "./content/reports.view.tsx";
import { HOST_CHANGES_CARD_ID } from "./content/host-changes.view.tsx";
import { PUBLISHING_ID } from "./content/publishing.view.tsx";
import { SUBMISSIONS_CARD_ID } from "./content/submissions.view.tsx";
import { OUTBOX_PATH } from "./operations/mail.view.tsx";

/** The fragments the badge and the panel poll. */
export const ACTION_CENTER_PATH = "/admin/action-center";
export const ACTION_CENTER_OVERVIEW_PATH = "/admin/action-center/overview";
export const ACTION_CENTER_ID = "action-center";
export const ACTION_CENTER_PANEL_ID = "action-center-panel";
/** How often the counts refresh. */
export const ACTION_CENTER_POLL = "every 10s";

/** Each kind: its name on the overview, its short form in the badge, and the card that handles it. */
const KINDS: Record<ActionKind, { label: string; one: string; many: string; href: string }> = {
  reports: { label: "Open reports from visitors", one: "report", many: "reports", href: `/admin/content#${REPORTS_CARD_ID}` },
  hostChanges: { label: "Changes proposed by hosts", one: "host change", many: "host changes", href: `/admin/content#${HOST_CHANGES_CARD_ID}` },
  failedEmails: { label: "Failed emails", one: "failed email", many: "failed emails", href: `${OUTBOX_PATH}?status=failed` },
  drafts: { label: "Unpublished changes", one: "unpublished change", many: "unpublished changes", href: `/admin/content#${PUBLISHING_ID}` },
  submissions: { label: "Pending submissions", one: "submission", many: "submissions", href: `/admin/content?status=pending#${SUBMISSIONS_CARD_ID}` },
  orders: { label: "Pending orders", one: "order", many: "orders", href: "/admin/placements#orders" },
};

/**
 * The polling attributes: a page whose counts lack the unpublished changes (not counted before
 * the page answers) loads the fragment at once too; the fragment itself only polls (a `load`
 * trigger on the swapped-in element would fetch it again at once, without end).
 */
function poll(path: string, counts: ActionCounts | undefined, fragment: boolean): Record<string, string> {
  const complete = fragment || (counts !== undefined && counts.drafts !== undefined);
  return { "hx-get": siteHref(path), "hx-trigger": complete ? ACTION_CENTER_POLL : `load, ${ACTION_CENTER_POLL}`, "hx-swap": "outerHTML" };
}

/** The header badge: the total, then a link per kind with work waiting. */
export function ActionCenterBadge(props: { counts?: ActionCounts; fragment?: boolean }): JSX.Element {
  const c = props.counts;
  const total = c ? actionTotal(c) : undefined;
  const waiting = c ? ACTION_KINDS.filter((kind) => (c[kind] ?? 0) > 0) : [];
  return (
    <div id={ACTION_CENTER_ID} class="action-center" {...poll(ACTION_CENTER_PATH, c, Boolean(props.fragment))} data-total={total === undefined ? "" : String(total)}>
      <span class={total ? "badge badge-attention" : "badge"} title="Open reports, host changes, failed emails, unpublished changes, pending submissions and orders">
        Action Center {Html.escapeHtml(total === undefined ? "–" : String(total))}
      </span>
      {waiting.length ? (
        <span class="tile-note">
          {waiting.map((kind, i) => (
            <>
              {i ? " · " : ""}
              <a href={siteHref(KINDS[kind].href)} data-action-kind={kind} safe>
                {`${c![kind]} ${c![kind] === 1 ? KINDS[kind].one : KINDS[kind].many}`}
              </a>
            </>
          ))}
        </span>
      ) : (
        ""
      )}
    </div>
  );
}

/** The overview's panel: every kind with its count (– when unknown, "counting…" for the unpublished changes before they are counted) and its card. */
export function ActionCenterPanel(props: { counts?: ActionCounts; fragment?: boolean }): JSX.Element {
  const c = props.counts;
  return (
    <section id={ACTION_CENTER_PANEL_ID} class="card" aria-labelledby="action-center-title" {...poll(ACTION_CENTER_OVERVIEW_PATH, c, Boolean(props.fragment))}>
      <div class="card-head">
        <h2 id="action-center-title">Action Center</h2>
        <span class={c && actionTotal(c) ? "badge badge-attention" : "badge"}>{Html.escapeHtml(c ? `${actionTotal(c)} waiting` : "–")}</span>
      </div>
      <ul>
        {ACTION_KINDS.map((kind) => {
          const value = c?.[kind];
          const shown = value !== undefined ? String(value) : c && kind === "drafts" ? "counting…" : "–";
          return (
            <li data-action-kind={kind} data-count={value === undefined ? "" : String(value)}>
              <a href={siteHref(KINDS[kind].href)} safe>
                {KINDS[kind].label}
              </a>
              : <strong safe>{shown}</strong>
            </li>
          );
        })}
      </ul>
      <p class="tile-note">Refreshes every 10 seconds.</p>
    </section>
  );
}
