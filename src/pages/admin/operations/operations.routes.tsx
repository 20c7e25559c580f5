// /admin/operations (see docs/console-operations.md): Activity, Runtime Data Status, Live Snapshot,
// Event Store Controls, Admin Sessions and Recovery, each card with its fragment routes. Actions
// call lib directly; long ones start a background job polled by the Activity card.

import { siteHref } from "../../../lib/links.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS, statusOf, privateFragment } from "../../../lib/http/responses.ts";
import { hxRedirect, isHtmx } from "../../../lib/http/htmx.ts";
import type { AdminPrincipal } from "../../../lib/auth/admin-credentials.ts";
import { listAdminSessions, parseJtiParam, revokeAdminSession, revokeAllAdminSessions } from "../../../lib/auth/admin-sessions.ts";
import { ADMIN_SESSION_COOKIE, clearedSessionCookie } from "../../../lib/auth/cookies.ts";
import { NotFoundError } from "../../../lib/http/errors.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { SessionsCard, type SessionsCardProps } from "./sessions.view.tsx";
import { storeActionRoutes, loadOperationsCards, OperationsCards } from "./store.routes.tsx";
import { listOutbox } from "../../../lib/mail/outbox.ts";
import { MailSummaryCard } from "./mail.view.tsx";
import { EditionsSummaryCard } from "./editions.view.tsx";
import { currentEdition, editionState } from "../../../lib/events/editions.ts";
import { listEditionArchives } from "../../../lib/store/edition-archive.ts";
import { VenuePinsCard, type VenuePinsCardProps } from "./pins.view.tsx";
import { listVenuePins, parsePastedCoordinates, setManualPin } from "../../../lib/geocoding/venue-pins.ts";
import { readForm } from "../../../lib/http/forms.ts";

const OPERATIONS_PATH = "/admin/operations";

/**
 * GET /admin/operations, GET /admin/operations/sessions, POST …/sessions/:jti/revoke,
 * POST …/sessions/revoke-all, and the store, status, snapshot, recovery and job routes of store.routes.tsx
 */
export function operationsRoutes(deps: Deps) {
  const cardProps = async (caller: AdminPrincipal, showExpired: boolean): Promise<SessionsCardProps> => {
    const now = deps.now();
    const listed = await listAdminSessions(deps.db, now, { includeExpired: showExpired });
    return { ...listed, caller, now, showExpired };
  };
  const page = async (request: Request, caller: AdminPrincipal, showExpired: boolean, jobId?: string) => {
    const [props, cards, outbox, venues, archives] = await Promise.all([cardProps(caller, showExpired), loadOperationsCards(deps, jobId), listOutbox(deps.db, undefined, 0), listVenuePins(deps), listEditionArchives(deps.db)]);
    const edition = currentEdition(deps.now(), deps.editions.windows);
    const sessionsAndMail = (
      <>
        <SessionsCard {...props} />
        <MailSummaryCard counts={outbox.counts} smtpConfigured={deps.outbox.enabled} />
        <EditionsSummaryCard year={edition.year} state={editionState(edition, deps.now())} night={edition.night} archived={archives.length} />
      </>
    );
    return consoleResponse(deps, request, "operations", "Operations", () => <OperationsCards {...cards} sessions={sessionsAndMail} pins={<VenuePinsCard venues={venues} />} />);
  };
  const cardResponse = (props: SessionsCardProps) =>
    privateFragment(<SessionsCard {...props} />);
  // After an action: the refreshed card for htmx, back to the page otherwise.
  const afterAction = async (request: Request, caller: AdminPrincipal) => {
    if (!isHtmx(request)) return hxRedirect(request, OPERATIONS_PATH, NO_STORE_HEADERS);
    return cardResponse(await cardProps(caller, false));
  };
  const expiredParam = (value: unknown) => value === "1";
  // The Venue pins card after a save (htmx), or the page with it (a plain form post).
  const pinsResponse = (props: VenuePinsCardProps, status: number) =>
    privateFragment(<VenuePinsCard {...props} />, status);

  return new Elysia({ name: "admin-operations-pages" })
    .use(adminPageGuard(deps))
    .get(OPERATIONS_PATH, ({ request, admin, query }) => page(request, admin, expiredParam(query.expired), typeof query.job === "string" ? query.job : undefined), { isAdmin: true })
    .use(storeActionRoutes(deps))
    .post(
      `${OPERATIONS_PATH}/venues/:id/pin`,
      async ({ request, admin, params }) => {
        const form = await readForm(request);
        const point = parsePastedCoordinates(form.coordinates ?? "");
        const outcome = point ? await setManualPin(deps, decodeURIComponent(params.id), point, actorOf(admin)) : ({ ok: false, reason: "invalid", error: 'Paste "latitude, longitude", for example "48.8566, 2.3522"' } as const);
        if (!isHtmx(request)) {
          if (!outcome.ok) return pinsResponse({ venues: await listVenuePins(deps), error: outcome.error }, statusOf(outcome.reason));
          return hxRedirect(request, `${OPERATIONS_PATH}#venue-pins`, NO_STORE_HEADERS);
        }
        const venues = await listVenuePins(deps);
        if (!outcome.ok) return pinsResponse({ venues, error: outcome.error }, 200);
        return pinsResponse({ venues, notice: `Pin of ${outcome.pin.name} set to ${outcome.pin.lat}, ${outcome.pin.lng} (manual); the public map follows.` }, 200);
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      `${OPERATIONS_PATH}/sessions`,
      async ({ request, admin, query }) => {
        const showExpired = expiredParam(query.expired);
        // Without htmx this address is the operations page itself.
        if (!isHtmx(request)) return hxRedirect(request, `${OPERATIONS_PATH}?expired=${showExpired ? "1" : "0"}`, NO_STORE_HEADERS);
        return cardResponse(await cardProps(admin, showExpired));
      },
      { isAdmin: true },
    )
    .post(
      `${OPERATIONS_PATH}/sessions/:jti/revoke`,
      async ({ request, admin, params, cookie }) => {
        const jti = parseJtiParam(params.jti);
        if (!jti || !(await revokeAdminSession(deps.db, jti, deps.now(), actorOf(admin)))) throw new NotFoundError("Session not found or invalid jti");
        if (admin.via === "token" && admin.session.jti === jti) {
          // The caller ended their own session: clear the cookie and go to the login page.
          cookie[ADMIN_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
          return hxRedirect(request, siteHref("/admin/login"), NO_STORE_HEADERS);
        }
        return afterAction(request, admin);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${OPERATIONS_PATH}/sessions/revoke-all`,
      async ({ request, admin, cookie }) => {
        const nextTokenVersion = await revokeAllAdminSessions(deps.db, deps.now());
        deps.log.info("admin-sessions", "All admin sessions revoked", { nextTokenVersion });
        if (admin.via === "token") {
          cookie[ADMIN_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
          return hxRedirect(request, siteHref("/admin/login"), NO_STORE_HEADERS);
        }
        return afterAction(request, admin);
      },
      { isAdmin: true, parse: "none" },
    );
}
