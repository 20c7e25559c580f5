// Fragment routes of the Event Submissions and Sliding Banner cards of /admin/content (see
// docs/console-operations.md), and their loaders for the page. Actions call lib directly; every
// answer for htmx is the card, with the inline error when the action was refused; without htmx the
// browser goes back to the page.

import { festivalWindow } from "../../../lib/events/festival-window.ts";
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS, statusOf, privateFragment } from "../../../lib/http/responses.ts";
import { hxRedirect, isHtmx } from "../../../lib/http/htmx.ts";
import { readForm } from "../../../lib/http/forms.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { acceptSubmission, declineSubmission, listSubmissions, submissionDashboard, SUBMISSION_STATUSES, type SubmissionStatus } from "../../../lib/submissions/moderation.ts";
import { readSubmissionSettings, setSubmissionSettings } from "../../../lib/submissions/settings.ts";
import { findBannerSettings, saveBannerSettings } from "../../../lib/site/banner.ts";
import { adminPageGuard } from "../guard.ts";
import type { CardNotice } from "../widgets.view.tsx";
import { SubmissionsCard, type SubmissionsCardProps } from "./submissions.view.tsx";
import { reviewSubmissions } from "../../../lib/submissions/review.ts";
import { BannerCard, type BannerCardProps } from "./banner.view.tsx";
import { ReportsCard, type ReportsCardProps } from "./reports.view.tsx";
import { dismissReports, listOpenReports, markReportedCancelled } from "../../../lib/reports/moderation.ts";
import { activeEditLinks, reissueEditLink, revokeEditLinks } from "../../../lib/submissions/host-links.ts";
import { acceptChanges, listChangeRequests, refuseChanges } from "../../../lib/submissions/host-changes.ts";
import { HostChangesCard, type HostChangesCardProps } from "./host-changes.view.tsx";

const PAGE = "/admin/content";

/** A status query value, pending when absent or unknown. */
export function statusParam(value: unknown): SubmissionStatus {
  return SUBMISSION_STATUSES.includes(value as SubmissionStatus) ? (value as SubmissionStatus) : "pending";
}

/** Loads the submissions card for one tab. */
export async function loadSubmissionsCard(deps: Pick<Deps, "db" | "kv" | "now" | "events" | "editions">, status: SubmissionStatus, extra: { notice?: CardNotice; acceptedKey?: string } = {}): Promise<SubmissionsCardProps> {
  const [submissions, counts, settings, live, links] = await Promise.all([
    listSubmissions(deps.db, status),
    submissionDashboard(deps.db, deps.now()),
    readSubmissionSettings(deps.kv).catch(() => ({ enabled: true })),
    // Listed events for the duplicate hints; without them the card still shows (no event hints).
    deps.events.load().then((read) => read.events).catch(() => []),
    status === "accepted" ? activeEditLinks(deps.db) : undefined,
  ]);
  const reviews = await reviewSubmissions(deps.db, submissions, live, festivalWindow(deps.now(), deps.editions.windows));
  return { status, submissions, counts, enabled: settings.enabled, reviews, links, ...extra };
}

/** Loads the card of changes proposed by hosts. */
export async function loadHostChangesCard(deps: Pick<Deps, "db">, extra: { notice?: CardNotice } = {}): Promise<HostChangesCardProps> {
  return { pending: await listChangeRequests(deps.db, "pending"), ...extra };
}

/** Loads the banner card. */
export async function loadBannerCard(deps: Pick<Deps, "kv" | "log">, extra: Partial<BannerCardProps> = {}): Promise<BannerCardProps> {
  return { banner: await findBannerSettings(deps), ...extra };
}

/** Loads the reports card. */
export async function loadReportsCard(deps: Pick<Deps, "db">, extra: { notice?: CardNotice } = {}): Promise<ReportsCardProps> {
  return { list: await listOpenReports(deps.db), ...extra };
}

/** The moderation cards, as the content page composes them. */
export function ModerationCards(props: { submissions: SubmissionsCardProps; changes: HostChangesCardProps; reports: ReportsCardProps; banner: BannerCardProps }): JSX.Element {
  return (
    <>
      <SubmissionsCard {...props.submissions} />
      <HostChangesCard {...props.changes} />
      <ReportsCard {...props.reports} />
      <BannerCard {...props.banner} />
    </>
  );
}

const fragment = privateFragment;

/** The banner form as a save body: messages one per line, seconds per message, wide-screen count, enabled. */
export function bannerFormBody(form: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (form.messages !== undefined) body.messages = form.messages.split(/\r\n?|\n/);
  if (form.seconds !== undefined && form.seconds.trim() !== "" && Number.isFinite(Number(form.seconds))) body.messageDurationMs = Number(form.seconds) * 1000;
  if (form.desktopMessageCount === "1" || form.desktopMessageCount === "2") body.desktopMessageCount = Number(form.desktopMessageCount);
  if (form.enabled === "true" || form.enabled === "false") body.enabled = form.enabled === "true";
  return body;
}

/**
 * GET /admin/content/submissions?status=, POST …/submissions/settings, POST …/submissions/:id/accept,
 * POST …/submissions/:id/decline, GET /admin/content/banner, POST /admin/content/banner,
 * GET /admin/content/reports, POST …/reports/:eventKey/cancel, POST …/reports/:eventKey/dismiss,
 * POST …/submissions/:id/edit-link/revoke|issue, GET /admin/content/changes,
 * POST …/changes/:id/accept, POST …/changes/:id/refuse
 */
export function moderationRoutes(deps: Deps) {
  const back = (request: Request, status: SubmissionStatus = "pending") => hxRedirect(request, `${PAGE}?status=${status}`, NO_STORE_HEADERS);
  const changesCard = async (extra: { notice?: CardNotice } = {}, code = 200) => fragment(<HostChangesCard {...await loadHostChangesCard(deps, extra)} />, code);
  const reportsCard = async (extra: { notice?: CardNotice } = {}, code = 200) => fragment(<ReportsCard {...await loadReportsCard(deps, extra)} />, code);
  const card = async (status: SubmissionStatus, extra: { notice?: CardNotice; acceptedKey?: string } = {}, code = 200) =>
    fragment(<SubmissionsCard {...await loadSubmissionsCard(deps, status, extra)} />, code);

  return new Elysia({ name: "admin-moderation-pages" })
    .use(adminPageGuard(deps))
    .get(`${PAGE}/submissions`, async ({ request, query }) => (isHtmx(request) ? card(statusParam(query.status)) : back(request, statusParam(query.status))), { isAdmin: true })
    .post(
      `${PAGE}/submissions/settings`,
      async ({ request, admin }) => {
        const form = await readForm(request);
        const status = statusParam(form.status);
        if (form.enabled !== "true" && form.enabled !== "false") return card(status, { notice: { kind: "error", text: "Choose open or closed." } }, 400);
        const { message } = await setSubmissionSettings(deps, form.enabled === "true", actorOf(admin));
        return isHtmx(request) ? card(status, { notice: { kind: "ok", text: message } }) : back(request, status);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/submissions/:id/accept`,
      async ({ request, params, admin }) => {
        const result = await acceptSubmission(deps, params.id, { reviewedBy: actorOf(admin) });
        if (!isHtmx(request)) return back(request);
        if (!result.ok) return card("pending", { notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        const text = `Accepted “${String(result.submission.payload.eventName ?? "")}” as event${result.warning ? ` (${result.warning})` : ""}`;
        return card("pending", { notice: { kind: "ok", text }, acceptedKey: result.acceptedEventKey });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/submissions/:id/decline`,
      async ({ request, params, admin }) => {
        const form = await readForm(request);
        const result = await declineSubmission(deps, params.id, { reason: form.reason ?? "", note: form.note, reviewedBy: actorOf(admin) });
        if (!isHtmx(request)) return back(request);
        if (!result.ok) return card("pending", { notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        return card("pending", { notice: { kind: "ok", text: `Declined “${String(result.submission.payload.eventName ?? "")}”` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/submissions/:id/edit-link/revoke`,
      async ({ request, params, admin }) => {
        const result = await revokeEditLinks(deps, params.id, actorOf(admin));
        if (!isHtmx(request)) return back(request, "accepted");
        if (!result.ok) return card("accepted", { notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        return card("accepted", { notice: { kind: "ok", text: result.revoked ? "Edit link revoked: it no longer opens anything" : "There was no working edit link" } });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/submissions/:id/edit-link/issue`,
      async ({ request, params, admin }) => {
        const result = await reissueEditLink(deps, params.id, actorOf(admin));
        if (!isHtmx(request)) return back(request, "accepted");
        if (!result.ok) return card("accepted", { notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        // Shown once: only a hash of the token is kept.
        return card("accepted", { notice: { kind: "ok", text: `New edit link emailed to the host (earlier links stop working): ${result.url}` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${PAGE}/changes`, async ({ request }) => (isHtmx(request) ? changesCard() : hxRedirect(request, PAGE, NO_STORE_HEADERS)), { isAdmin: true })
    .post(
      `${PAGE}/changes/:id/accept`,
      async ({ request, params, admin }) => {
        const result = await acceptChanges(deps, params.id, actorOf(admin));
        if (!isHtmx(request)) return hxRedirect(request, PAGE, NO_STORE_HEADERS);
        if (!result.ok) return changesCard({ notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        return changesCard({ notice: { kind: "ok", text: `Changes to ${result.request.eventKey} published; the host is emailed${result.warning ? ` (${result.warning})` : ""}` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/changes/:id/refuse`,
      async ({ request, params, admin }) => {
        const form = await readForm(request);
        const result = await refuseChanges(deps, params.id, form.reason, actorOf(admin));
        if (!isHtmx(request)) return hxRedirect(request, PAGE, NO_STORE_HEADERS);
        if (!result.ok) return changesCard({ notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        return changesCard({ notice: { kind: "ok", text: `Changes to ${result.request.eventKey} refused; the host is emailed the reason` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${PAGE}/reports`, async ({ request }) => (isHtmx(request) ? reportsCard() : hxRedirect(request, PAGE, NO_STORE_HEADERS)), { isAdmin: true })
    .post(
      `${PAGE}/reports/:eventKey/cancel`,
      async ({ request, params, admin }) => {
        const result = await markReportedCancelled(deps, params.eventKey, actorOf(admin));
        if (!isHtmx(request)) return hxRedirect(request, PAGE, NO_STORE_HEADERS);
        if (!result.ok) return reportsCard({ notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        const reason = result.note ? ` with the reason “${result.note}”` : "";
        return reportsCard({ notice: { kind: "ok", text: `“${result.title}” is now shown as cancelled${reason}; ${result.count} ${result.count === 1 ? "report" : "reports"} resolved` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PAGE}/reports/:eventKey/dismiss`,
      async ({ request, params, admin }) => {
        const result = await dismissReports(deps, params.eventKey, actorOf(admin));
        if (!isHtmx(request)) return hxRedirect(request, PAGE, NO_STORE_HEADERS);
        if (!result.ok) return reportsCard({ notice: { kind: "error", text: result.error } }, statusOf(result.reason));
        return reportsCard({ notice: { kind: "ok", text: `Dismissed ${result.count} ${result.count === 1 ? "report" : "reports"} on “${result.title}”` } });
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${PAGE}/banner`, async ({ request }) => (isHtmx(request) ? fragment(<BannerCard {...await loadBannerCard(deps)} />) : back(request)), { isAdmin: true })
    .post(
      `${PAGE}/banner`,
      async ({ request, admin }) => {
        const form = await readForm(request);
        const saved = await saveBannerSettings(deps, bannerFormBody(form), actorOf(admin));
        if (!isHtmx(request)) return back(request);
        if (!saved.ok) {
          const draft = { messages: form.messages ?? "", seconds: form.seconds ?? "" };
          return fragment(<BannerCard {...await loadBannerCard(deps, { notice: { kind: "error", text: saved.error }, draft })} />, 400);
        }
        return fragment(<BannerCard banner={saved.settings} notice={{ kind: "ok", text: "Banner saved; the homepage and /feature-event show it now" }} />);
      },
      { isAdmin: true, parse: "none" },
    );
}
