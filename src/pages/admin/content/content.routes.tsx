// /admin/content: the event sheet editor and its revisions card, composed with the area's other
// cards. The page reads the sheet through lib; the grid script then talks to the admin sheet API.

import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS, privateFragment } from "../../../lib/http/responses.ts";
import { hxRedirect, isHtmx } from "../../../lib/http/htmx.ts";
import { EDITOR_PAGE, readEditorWindow, readRevisionDiff, restoreRevision } from "../../../lib/admin/sheet-editor.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { listRevisions } from "../../../lib/store/revisions.ts";
import { NotFoundError } from "../../../lib/http/errors.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { ContentArea, SheetEditorCard } from "./editor.view.tsx";
import { RevisionsCard, type RevisionsCardProps } from "./revisions.view.tsx";
import { loadBannerCard, loadHostChangesCard, loadReportsCard, loadSubmissionsCard, ModerationCards, statusParam } from "./moderation.routes.tsx";
import { PublishingCard, PublishingCardLoading, PUBLISHING_BASE, type PublishingCardProps } from "./publishing.view.tsx";
import { discardDrafts, parseStatusInput, publishDrafts, setEventStatus } from "../../../lib/admin/publishing.ts";
import { readUnpublishedChanges, reviewCounts } from "../../../lib/admin/drafts.ts";
import { t } from "../../../lib/i18n/index.ts";
import { readForm } from "../../../lib/http/forms.ts";
import type { CardNotice } from "../widgets.view.tsx";

const CONTENT_PATH = "/admin/content";

/** GET /admin/content, GET …/publishing, POST …/publishing/{publish,discard,status}, GET …/revisions, GET …/revisions/:id, POST …/revisions/:id/restore */
export function contentRoutes(deps: Deps) {
  const card = (props: RevisionsCardProps, status = 200) => privateFragment(<RevisionsCard {...props} />, status);
  const publishing = async (props: Omit<PublishingCardProps, "changes">, status = 200, headers: Record<string, string> = {}) =>
    privateFragment(<PublishingCard changes={await readUnpublishedChanges(deps)} {...props} />, status, headers);
  // A publishing action: the card with its notice for htmx, else back to the page. A change that
  // went through tells the editor on the page (`sheet-published`, `sheet-discarded`): it reads its
  // rows and marks again.
  const publishingAnswer = async (request: Request, notice: CardNotice, event?: "sheet-published" | "sheet-discarded", status = notice.kind === "error" ? 422 : 200) =>
    isHtmx(request) ? publishing({ notice }, status, event ? { "hx-trigger": event } : {}) : hxRedirect(request, CONTENT_PATH, NO_STORE_HEADERS);
  // Without htmx the card's addresses are the content page itself.
  const onlyHtmx = (request: Request) => (isHtmx(request) ? undefined : hxRedirect(request, CONTENT_PATH, NO_STORE_HEADERS));

  return new Elysia({ name: "admin-content-pages" })
    .use(adminPageGuard(deps))
    .get(
      CONTENT_PATH,
      async ({ request, query }) => {
        const [sheet, revisions, submissions, reports, banner, hostChanges] = await Promise.all([
          // Only the first page of rows (or of the rows matching ?search=, the link an accepted
          // submission gives): opening the editor reads no more of the sheet than it draws.
          readEditorWindow(deps, { offset: 0, limit: EDITOR_PAGE, search: typeof query.search === "string" ? query.search.slice(0, 200) : "" }, deps.now()),
          listRevisions(deps.db),
          loadSubmissionsCard(deps, statusParam(query.status)),
          loadReportsCard(deps),
          loadBannerCard(deps),
          loadHostChangesCard(deps),
        ]);
        return consoleResponse(deps, request, "content", "Content", () => (
          <ContentArea>
            <PublishingCardLoading />
            <SheetEditorCard sheet={sheet} />
            <RevisionsCard revisions={revisions} />
            <ModerationCards submissions={submissions} changes={hostChanges} reports={reports} banner={banner} />
          </ContentArea>
        ));
      },
      { isAdmin: true },
    )
    .get(PUBLISHING_BASE, async ({ request, query }) => (isHtmx(request) ? publishing({ review: query.review === "1" }) : hxRedirect(request, CONTENT_PATH, NO_STORE_HEADERS)), { isAdmin: true })
    .post(
      `${PUBLISHING_BASE}/publish`,
      async ({ request, admin }) => {
        const result = await publishDrafts(deps, actorOf(admin), (await readForm(request)).confirm === "1");
        if (!result.ok && "needsConfirmation" in result) return publishingAnswer(request, { kind: "error", text: t("publishing.held.refused", { changes: reviewCounts(result.review) }) }, undefined, 409);
        if (!result.ok) return publishingAnswer(request, { kind: "error", text: `Nothing was published: ${result.error}` });
        const text = result.revalidationError ?? "Published: visitors now see the sheet as it is in the editor.";
        return publishingAnswer(request, { kind: result.revalidationError ? "error" : "ok", text }, "sheet-published");
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PUBLISHING_BASE}/discard`,
      async ({ request, admin }) => {
        const result = await discardDrafts(deps, actorOf(admin));
        if (!result.ok) return publishingAnswer(request, { kind: "error", text: result.error });
        return publishingAnswer(request, { kind: "ok", text: result.discarded ? `Discarded ${result.discarded} unpublished changes: the editor shows the sheet as visitors see it.` : "There was nothing to discard." }, result.discarded > 0 ? "sheet-discarded" : undefined);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PUBLISHING_BASE}/status`,
      async ({ request, admin }) => {
        const parsed = parseStatusInput(await readForm(request));
        if (!parsed.ok) return publishingAnswer(request, { kind: "error", text: parsed.issues.map((i) => i.message).join("; ") });
        const result = await setEventStatus(deps, parsed.input, actorOf(admin));
        if (!result.ok) return publishingAnswer(request, { kind: "error", text: result.error });
        return publishingAnswer(request, { kind: "ok", text: `"${result.title}" is now ${result.status}${result.note ? ` (${result.note})` : ""} on the public site.` }, "sheet-published");
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${CONTENT_PATH}/revisions`, async ({ request }) => onlyHtmx(request) ?? card({ revisions: await listRevisions(deps.db) }), { isAdmin: true })
    .get(
      `${CONTENT_PATH}/revisions/:id`,
      async ({ request, params }) => {
        const redirect = onlyHtmx(request);
        if (redirect) return redirect;
        const found = await readRevisionDiff(deps.db, params.id);
        if (!found) throw new NotFoundError("No such revision");
        return card({ revisions: await listRevisions(deps.db), open: { id: found.revision.id, diff: found.diff } });
      },
      { isAdmin: true },
    )
    .post(
      `${CONTENT_PATH}/revisions/:id/restore`,
      async ({ request, params, admin }) => {
        const result = await restoreRevision(deps, params.id, actorOf(admin));
        if (!isHtmx(request)) return hxRedirect(request, CONTENT_PATH, NO_STORE_HEADERS);
        const revisions = await listRevisions(deps.db);
        if (!result.ok) return card({ revisions, message: { kind: "error", text: result.error } }, result.reason === "not_found" ? 404 : 422);
        const text = result.revalidationError ?? "Revision restored and homepage revalidated. Reload the editor to see it.";
        return card({ revisions, message: { kind: result.revalidationError ? "error" : "ok", text } });
      },
      { isAdmin: true, parse: "none" },
    );
}
