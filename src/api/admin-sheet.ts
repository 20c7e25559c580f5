// Admin sheet API (see docs/console.md, "JSON API"): read the sheet (whole, or one window of it), autosave edits (PATCH), replace
// or publish it (PUT), list revisions, diff one against the current sheet, restore one.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { isPlainObject, jsonNoStore, readJson, readObjectBody, outcomeJson, refusalJson } from "../lib/http/responses.ts";
import { invalid, refused } from "../lib/outcome.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import {
  INVALID_PAYLOAD,
  listSheetRevisions,
  parseSheetPatch,
  parseSheetReplace,
  parseWindowQuery,
  readEditorSheet,
  readEditorWindow,
  readRevisionDiff,
  readSheetWarnings,
  replaceSheet,
  restoreRevision,
  writeSheetEdits,
} from "../lib/admin/sheet-editor.ts";
import { discardDrafts, parsePublishInput, parseStatusInput, publishDrafts, setEventStatus } from "../lib/admin/publishing.ts";
import { readDraftSummary, readUnpublishedChanges } from "../lib/admin/drafts.ts";

const SHEET = "/api/admin/sheet";

/**
 * GET/PUT/PATCH /api/admin/sheet, GET …/unpublished, GET …/drafts, POST …/publish, POST …/discard, GET …/revisions,
 * GET …/revisions/:id, POST …/revisions/:id/restore, POST /api/admin/events/status
 */
export function adminSheetApi(deps: Deps) {
  return new Elysia({ name: "admin-sheet-api" })
    .use(adminGuard(deps))
    .get(
      SHEET,
      async ({ query, request }) => {
        const parsed = parseWindowQuery(query);
        if (!parsed.ok) return refusalJson(parsed);
        const window = parsed.window;
        if (window) return jsonNoStore({ success: true, ...(await readEditorWindow(deps, window, deps.now())) });
        return jsonNoStore({ success: true, ...(await readEditorSheet(deps.db)) });
      },
      { isAdmin: true },
    )
    .patch(
      SHEET,
      async ({ request, admin }) => {
        const parsed = parseSheetPatch(await readJson(request));
        if (!parsed.ok) return refusalJson(parsed);
        const patch = parsed.patch;
        return outcomeJson(await writeSheetEdits(deps, patch, actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    )
    .put(
      SHEET,
      async ({ request, admin }) => {
        const parsed = parseSheetReplace(await readJson(request));
        if (!parsed.ok) return refusalJson(parsed);
        return outcomeJson(await replaceSheet(deps, parsed.input, actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${SHEET}/warnings`, async ({ request }) => jsonNoStore({ success: true, warnings: await readSheetWarnings(deps.db, deps.now()) }), { isAdmin: true })
    .get(`${SHEET}/unpublished`, async () => jsonNoStore({ success: true, ...(await readUnpublishedChanges(deps)) }), { isAdmin: true })
    .get(`${SHEET}/drafts`, async () => jsonNoStore({ success: true, ...(await readDraftSummary(deps)) }), { isAdmin: true })
    .post(
      `${SHEET}/publish`,
      async ({ request, admin }) => {
        const parsed = parsePublishInput(await readObjectBody(request));
        if (!parsed.ok) return refusalJson(parsed);
        return outcomeJson(await publishDrafts(deps, actorOf(admin), parsed.confirm));
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${SHEET}/discard`,
      async ({ admin }) => {
        const result = await discardDrafts(deps, actorOf(admin));
        if (!result.ok) return refusalJson(result);
        return jsonNoStore({ success: true, discarded: result.discarded });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/events/status",
      async ({ request, admin }) => {
        const body = await readJson(request);
        const parsed = isPlainObject(body) ? parseStatusInput(body) : invalid(INVALID_PAYLOAD, [{ field: "body", message: "Expected a JSON object" }]);
        if (!parsed.ok) return refusalJson(parsed);
        return outcomeJson(await setEventStatus(deps, parsed.input, actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    )
    .get(`${SHEET}/revisions`, async () => jsonNoStore({ success: true, revisions: await listSheetRevisions(deps.db) }), { isAdmin: true })
    .get(
      `${SHEET}/revisions/:id`,
      async ({ params }) => {
        const found = await readRevisionDiff(deps.db, params.id);
        if (!found) return refusalJson(refused("not_found", "No such revision"));
        return jsonNoStore({ success: true, ...found });
      },
      { isAdmin: true },
    )
    .post(
      `${SHEET}/revisions/:id/restore`,
      async ({ params, admin }) => {
        return outcomeJson(await restoreRevision(deps, params.id, actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    );
}
