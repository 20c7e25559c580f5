// The "Changes proposed by hosts" card of /admin/content (see docs/host-edit-link.md): each
// pending proposal from a host's edit link as a diff against the published row (published now →
// proposed, per field), with Accept (written to the sheet and published alone) and Refuse with a
// reason the host reads. Every action swaps the card; a refused action shows its error inline.

import type { ChangeRequestView, EditableField } from "../../../lib/submissions/host-changes.ts";
import { Notice, Time, type CardNotice } from "../widgets.view.tsx";
import { editorLinkFor } from "./submissions.view.tsx";

export const HOST_CHANGES_CARD_ID = "host-changes-card";
const BASE = "/admin/content/changes";

const FIELD_LABEL: Record<EditableField, string> = { startTime: "Start time", endTime: "End time", location: "Venue", area: "Arrondissement", notes: "Notes", primaryUrl: "Link" };

export interface HostChangesCardProps {
  pending: ChangeRequestView[];
  notice?: CardNotice;
}

function Proposal(props: { view: ChangeRequestView }): JSX.Element {
  const { request, fields } = props.view;
  const target = { "hx-target": `#${HOST_CHANGES_CARD_ID}`, "hx-swap": "outerHTML" };
  return (
    <article class="submission host-change" data-change-id={request.id} data-change-event={request.eventKey}>
      <h3 safe>{props.view.title || request.eventKey}</h3>
      <p class="tile-note">
        <code safe>{request.eventKey}</code> · <a href={editorLinkFor(request.eventKey)}>Open in the editor</a> · proposed <Time value={request.createdAt} />
      </p>
      {props.view.published ? "" : <p class="notice notice-error">This event is no longer published: accepting is refused.</p>}
      <div class="table-scroll">
        <table class="diff-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Published now</th>
              <th scope="col">Proposed</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr data-field={f.field}>
                <th scope="row" safe>
                  {FIELD_LABEL[f.field]}
                </th>
                <td class="diff-before">
                  <del safe>{f.current || "—"}</del>
                  {f.changedSince ? <small class="tile-note"> (changed since the proposal)</small> : ""}
                </td>
                <td class="diff-after">
                  <ins safe>{f.proposed || "—"}</ins>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="card-actions">
        <form method="post" action={`${BASE}/${request.id}/accept`} hx-post={`${BASE}/${request.id}/accept`} {...target} hx-disabled-elt="find button">
          <button type="submit" class="button">
            Accept and publish
          </button>
        </form>
        <form class="ops-form" method="post" action={`${BASE}/${request.id}/refuse`} hx-post={`${BASE}/${request.id}/refuse`} {...target}>
          <label for={`refuse-${request.id}`}>Reason for the host</label>
          <input id={`refuse-${request.id}`} type="text" name="reason" maxlength="500" required placeholder="Sent to the host by email" />
          <button type="submit" class="button button-danger">
            Refuse
          </button>
        </form>
      </div>
    </article>
  );
}

export function HostChangesCard(props: HostChangesCardProps): JSX.Element {
  const target = { "hx-target": `#${HOST_CHANGES_CARD_ID}`, "hx-swap": "outerHTML" };
  return (
    <section id={HOST_CHANGES_CARD_ID} class="card" aria-labelledby="host-changes-title">
      <div class="card-head">
        <h2 id="host-changes-title">Changes proposed by hosts</h2>
        <span class={props.pending.length ? "badge badge-attention" : "badge"} safe>{`${props.pending.length} waiting`}</span>
      </div>
      <div class="card-actions">
        <a class="button button-quiet" href={`/admin/content#${HOST_CHANGES_CARD_ID}`} hx-get={BASE} {...target}>
          Refresh
        </a>
      </div>
      <Notice notice={props.notice} />
      <p class="tile-note">Hosts propose these through the private edit link of their accepted event. A cancellation needs no review: it is published at once and listed in the activity timeline.</p>
      {props.pending.length === 0 ? <p class="empty">No changes waiting.</p> : props.pending.map((view) => <Proposal view={view} />)}
    </section>
  );
}
