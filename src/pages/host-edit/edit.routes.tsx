// /edit-event/<link id>?token=: the host's private edit page (see docs/host-edit-link.md). GET shows
// the event and the forms; POST proposes changes (they wait for a moderator); POST …/cancel cancels
// at once. Every answer is never cached and sends no Referer to other sites (the token is in the URL); a link that
// does not open answers 400, 403, 404 or 410 with nothing written.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { html, NO_STORE_HEADERS, refusalPage, withBodyCap } from "../../lib/http/responses.ts";
import { readJsonOrForm } from "../../lib/http/forms.ts";
import { isCrossSiteRequest } from "../../lib/http/origin.ts";
import { cookieLanguage, inLanguage, isLanguage, queryLanguage, t, type Language } from "../../lib/i18n/index.ts";
import { languageOfUrl, siteRootOf } from "../language.plugin.ts";
import { sharePath } from "../../lib/links.ts";
import { slugify } from "../../lib/sheet/keys.ts";
import { parseEventStatus } from "../../lib/sheet/status.ts";
import { EDIT_LINK_PATH, editLinkRefused, openEditLink, type EditLink, type EditLinkSubmission } from "../../lib/submissions/host-links.ts";
import { cancelFromLink, EDITABLE_FIELDS, pendingProposal, proposeChanges, publishedRowOf, type EditableField, type ProposalIssue } from "../../lib/submissions/host-changes.ts";
import { EditLinkErrorPage, EditPage, type EditPageProps } from "./edit.view.tsx";

/**
 * Never cached, and no Referer to another site (the token is in the URL). `same-origin` rather
 * than `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the page's own form
 * posts, which the cross-site check must refuse.
 */
const HEADERS: Readonly<Record<string, string>> = { ...NO_STORE_HEADERS, "referrer-policy": "same-origin" };
/** The forms are small: 16 KiB is plenty for 3,000 characters of notes. */
const MAX_BODY_BYTES = 16 * 1024;

/** The page's language: `?lang=`, else the `lang` cookie (the footer's switch), else the language the host submitted in, else the request's. */
function pageLanguage(deps: Deps, request: Request, submission?: EditLinkSubmission): Language {
  return (
    queryLanguage(request.url) ??
    cookieLanguage(request.headers.get("cookie")) ??
    (isLanguage(submission?.language) ? submission.language : languageOfUrl(request.url, siteRootOf(deps)).language)
  );
}

async function pageProps(deps: Deps, link: EditLink, token: string, extra: Partial<EditPageProps> = {}): Promise<EditPageProps | undefined> {
  const row = await publishedRowOf(deps.db, link.eventKey);
  if (!row) return undefined;
  const pending = await pendingProposal(deps.db, link.eventKey);
  const title = row.values.title ?? "";
  return {
    linkId: link.id,
    token,
    title,
    date: row.values.date ?? "",
    publicHref: sharePath({ eventKey: link.eventKey, slug: slugify(title) || "event" }),
    current: Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, row.values[f] ?? ""])) as Record<EditableField, string>,
    cancelled: parseEventStatus(row.values.status).status === "cancelled",
    statusNote: row.values.statusNote ?? "",
    pending: pending?.changes,
    ...extra,
  };
}

/** Echoes what the host typed, as text. */
function echo(body: Record<string, unknown> | undefined): Partial<Record<EditableField | "note", string>> {
  const out: Partial<Record<EditableField | "note", string>> = {};
  for (const field of [...EDITABLE_FIELDS, "note"] as const) if (typeof body?.[field] === "string") out[field] = (body[field] as string).slice(0, 4000);
  return out;
}

/** GET /edit-event/:linkId, POST /edit-event/:linkId, POST /edit-event/:linkId/cancel */
export function hostEditRoutes(deps: Deps) {
  /** Opens the link and renders in the right language; `act` runs once the link opened. */
  const withLink = async (request: Request, linkId: string, token: unknown, act: (link: EditLink, token: string) => Promise<Response>): Promise<Response> => {
    const opened = await openEditLink(deps, linkId, token);
    if (!opened.ok) return inLanguage(pageLanguage(deps, request), () => refusalPage(opened, <EditLinkErrorPage error={opened.code} />, HEADERS));
    return inLanguage(pageLanguage(deps, request, opened.submission), () => act(opened.link, token as string));
  };
  const gone = () => refusalPage(editLinkRefused("notListed"), <EditLinkErrorPage error="notListed" />, HEADERS);
  /** Reads a POST body after the origin and size checks; a refusal is an answer. */
  const readBody = async (request: Request): Promise<Record<string, unknown> | Response | undefined> => {
    if (isCrossSiteRequest(deps.config, request)) return inLanguage(languageOfUrl(request.url, siteRootOf(deps)).language, () => html(<EditLinkErrorPage error="crossSite" />, 403, HEADERS));
    const capped = await withBodyCap(request, MAX_BODY_BYTES);
    if (capped === "too_large") return new Response("Request body too large", { status: 413, headers: HEADERS });
    return readJsonOrForm(capped);
  };

  return new Elysia({ name: "host-edit-pages" })
    .get(`${EDIT_LINK_PATH}/:linkId`, ({ request, params, query }) =>
      withLink(request, params.linkId, query.token, async (link, token) => {
        const props = await pageProps(deps, link, token);
        return props ? html(<EditPage {...props} />, 200, HEADERS) : gone();
      }),
    )
    .post(
      `${EDIT_LINK_PATH}/:linkId`,
      async ({ request, params }) => {
        const body = await readBody(request);
        if (body instanceof Response) return body;
        return withLink(request, params.linkId, body?.token, async (link, token) => {
          const result = await proposeChanges(deps, link, body);
          if (!result.ok && result.reason === "gone") return gone();
          if (!result.ok) {
            const props = await pageProps(deps, link, token, { values: echo(body), issues: result.issues, notice: { kind: "error", text: t(result.issues.some((i) => i.code === "noChange") ? "edit.error.noChange" : "edit.error.invalid") } });
            return props ? html(<EditPage {...props} />, 400, HEADERS) : gone();
          }
          const props = await pageProps(deps, link, token, { notice: { kind: "success", text: t("edit.sent") } });
          return props ? html(<EditPage {...props} />, 200, HEADERS) : gone();
        });
      },
      { parse: "none" },
    )
    .post(
      `${EDIT_LINK_PATH}/:linkId/cancel`,
      async ({ request, params }) => {
        const body = await readBody(request);
        if (body instanceof Response) return body;
        return withLink(request, params.linkId, body?.token, async (link, token) => {
          if (body?.confirm !== "yes") {
            const props = await pageProps(deps, link, token, { values: echo(body), notice: { kind: "error", text: t("edit.error.confirm") } });
            return props ? html(<EditPage {...props} />, 400, HEADERS) : gone();
          }
          const result = await cancelFromLink(deps, link, body.note);
          if (!result.ok && result.reason === "not_found") return gone();
          if (!result.ok) {
            const issues: ProposalIssue[] = "issues" in result && Array.isArray(result.issues) ? (result.issues as ProposalIssue[]) : [{ field: "note", code: "tooLong", message: result.error }];
            const props = await pageProps(deps, link, token, { values: echo(body), issues, notice: { kind: "error", text: t("edit.error.invalid") } });
            return props ? html(<EditPage {...props} />, 400, HEADERS) : gone();
          }
          const props = await pageProps(deps, link, token, { notice: { kind: "success", text: t("edit.cancelled") } });
          return props ? html(<EditPage {...props} />, 200, HEADERS) : gone();
        });
      },
      { parse: "none" },
    );
}
