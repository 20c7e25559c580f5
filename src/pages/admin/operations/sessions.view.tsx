// The Admin Sessions card of /admin/operations (see docs/console.md): the caller's session, tracked
// sessions active/total, every record with status and a Revoke button on active ones, Show/Hide
// expired, Revoke All Sessions (with a confirmation step) and Logout.

import { siteHref } from "../../../lib/links.ts";
import Html from "@kitajs/html";
import type { AdminPrincipal } from "../../../lib/auth/admin-credentials.ts";
import type { AdminSessionView } from "../../../lib/auth/admin-sessions.ts";
import { parisFormat } from "../../../lib/paris-time.ts";

/** The root id of the card; every action of the card swaps it. */
export const ADMIN_SESSIONS_ID = "admin-sessions";

export interface SessionsCardProps {
  sessions: AdminSessionView[];
  currentVersion: number;
  total: number;
  active: number;
  caller: AdminPrincipal;
  now: Date;
  showExpired: boolean;
}

const PARIS = parisFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** A Unix time as a Paris wall-clock label inside <time> with the ISO value. */
function Time(props: { seconds: number }): JSX.Element {
  const date = new Date(props.seconds * 1000);
  return (
    <time datetime={date.toISOString()} safe>
      {PARIS.format(date)}
    </time>
  );
}

function minutesLeft(exp: number, now: Date): string {
  const minutes = Math.max(0, Math.round((exp * 1000 - now.getTime()) / 60000));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function CallerLine(props: { caller: AdminPrincipal; currentVersion: number; now: Date }): JSX.Element {
  if (props.caller.via === "key") {
    return (
      <p class="session-caller">
        Signed in with the admin key (no session). Token version <strong safe>{String(props.currentVersion)}</strong>.
      </p>
    );
  }
  const s = props.caller.session;
  return (
    <p class="session-caller">
      Your session expires at <Time seconds={s.exp} /> (in {Html.escapeHtml(minutesLeft(s.exp, props.now))}). Token version <strong safe>{String(props.currentVersion)}</strong>.
    </p>
  );
}

/** The card; `hx-target` of every action inside is the card itself. */
export function SessionsCard(props: SessionsCardProps): JSX.Element {
  const callerJti = props.caller.via === "token" ? props.caller.session.jti : undefined;
  const toggle = props.showExpired ? "0" : "1";
  return (
    <section id={ADMIN_SESSIONS_ID} class="card sessions-card" aria-labelledby="admin-sessions-title">
      <div class="card-head">
        <h2 id="admin-sessions-title">Admin Sessions</h2>
        <span class="badge">
          {Html.escapeHtml(`${props.active} active / ${props.total} total`)}
        </span>
      </div>
      <CallerLine caller={props.caller} currentVersion={props.currentVersion} now={props.now} />
      {props.sessions.length === 0 ? (
        <p class="empty">No tracked sessions{props.showExpired ? "" : " besides expired ones"}.</p>
      ) : (
        <table class="sessions-table">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Issued</th>
              <th scope="col">Expires</th>
              <th scope="col">Session (jti)</th>
              <th scope="col">tv</th>
              <th scope="col">IP</th>
              <th scope="col">User agent</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((s) => (
              <tr class={s.jti === callerJti ? "session-row session-own" : "session-row"}>
                <td data-label="Status">
                  <span class={`status status-${s.status}`} safe>
                    {s.status}
                  </span>
                  {s.jti === callerJti ? <span class="own-label"> (this session)</span> : ""}
                </td>
                <td data-label="Issued">
                  <Time seconds={s.iat} />
                </td>
                <td data-label="Expires">
                  <Time seconds={s.exp} />
                </td>
                <td data-label="jti">
                  <code class="jti" title={s.jti} safe>
                    {s.jti}
                  </code>
                </td>
                <td data-label="tv" safe>{String(s.tv)}</td>
                <td data-label="IP" safe>
                  {s.ip}
                </td>
                <td data-label="User agent" class="ua" title={s.ua} safe>
                  {s.ua || "–"}
                </td>
                <td class="row-actions">
                  {s.status === "active" ? (
                    <form method="post" action={siteHref(`/admin/operations/sessions/${s.jti}/revoke`)}>
                      <button
                        type="submit"
                        class="button button-small button-danger"
                        hx-post={siteHref(`/admin/operations/sessions/${s.jti}/revoke`)}
                        hx-target={`#${ADMIN_SESSIONS_ID}`}
                        hx-swap="outerHTML"
                        aria-label={`Revoke session ${s.jti}`}
                      >
                        Revoke
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
      <div class="card-actions">
        <a
          class="button button-quiet"
          href={siteHref(`/admin/operations?expired=${toggle}#${ADMIN_SESSIONS_ID}`)}
          hx-get={siteHref(`/admin/operations/sessions?expired=${toggle}`)}
          hx-target={`#${ADMIN_SESSIONS_ID}`}
          hx-swap="outerHTML"
        >
          {props.showExpired ? "Hide expired" : "Show expired"}
        </a>
        <details class="confirm">
          <summary class="button button-danger">Revoke All Sessions</summary>
          <div class="confirm-panel">
            <p>Every admin session stops working at once, including yours. Everyone signs in again with the key.</p>
            <form method="post" action={siteHref("/admin/operations/sessions/revoke-all")}>
              <button type="submit" class="button button-danger" hx-post={siteHref("/admin/operations/sessions/revoke-all")} hx-target={`#${ADMIN_SESSIONS_ID}`} hx-swap="outerHTML">
                Yes, revoke all sessions
              </button>
            </form>
          </div>
        </details>
        <form method="post" action={siteHref("/admin/logout")}>
          <button type="submit" class="button" hx-post={siteHref("/admin/logout")}>
            Logout
          </button>
        </form>
      </div>
    </section>
  );
}
