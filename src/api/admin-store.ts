// Admin API of the event store tools (see docs/console-operations.md, "Admin API"): upload and
// export, spreadsheet preview and import, backups and restore, revalidation, recovery, and the
// progress of background jobs. Same guard as every admin endpoint; answers are never cached.

import { requestDeadline } from "../lib/db/write-deadline.ts";
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, isPlainObject, readJson, readObjectBody, NO_STORE_HEADERS, refusalAnswer, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { HttpError, ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { createBackup, listBackups } from "../lib/store/backups.ts";
import { exportStoreCsv, storeExportFileName } from "../lib/store/csv-transfer.ts";
import { parsePreviewWindow, previewSpreadsheet } from "../lib/spreadsheet-import/import.ts";
import {
  CLEAR_STORE_CONFIRMATION,
  clearStoreWithSnapshot,
  importSpreadsheetJob,
  loadLocalCsv,
  OPERATION_MESSAGES,
  rebuildCoordinates,
  resetCoordinateCache,
  restoreAndRevalidate,
  revalidateNow,
  uploadCsv,
} from "../lib/admin/store-operations.ts";


/**
 * POST /api/admin/sheet/upload, GET /api/admin/sheet/export, POST /api/admin/sheet/import/preview
 * (?limit=1–50&offset=N or &random=1),
 * POST /api/admin/sheet/import, GET|POST /api/admin/backups, POST /api/admin/backups/restore,
 * POST /api/admin/revalidate, POST /api/admin/recovery/:action, GET /api/admin/jobs/:id
 */
export function adminStoreApi(deps: Deps) {
  return new Elysia({ name: "admin-store-api" })
    .use(adminGuard(deps))
    .post(
      "/api/admin/sheet/upload",
      async ({ request, query, admin }) => {
        const text = await request.text();
        const outcome = await uploadCsv(deps, text, { dryRun: query.dryRun === "1" || query.dryRun === "true", actor: actorOf(admin), bytes: new TextEncoder().encode(text).length });
        if (!outcome.ok) return refusalJson(outcome);
        if (outcome.dryRun) return jsonNoStore({ success: true, dryRun: true, message: outcome.message, report: outcome.report });
        return jsonNoStore({ success: true, message: outcome.message, report: outcome.report, meta: outcome.meta });
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      "/api/admin/sheet/export",
      async () => {
        const csv = await exportStoreCsv(deps.db);
        if (csv === undefined) return refusalJson(refused("not_found", "The store has never been written"));
        return new Response(csv, {
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${storeExportFileName(deps.now())}"`, ...NO_STORE_HEADERS },
        });
      },
      { isAdmin: true },
    )
    .post(
      "/api/admin/sheet/import/preview",
      async ({ query }) => {
        const parsed = parsePreviewWindow(query);
        if (!parsed.ok) throw new ValidationError("Invalid preview window", parsed.issues);
        const preview = await previewSpreadsheet(deps, parsed.window);
        if (!preview.ok) return refusalAnswer(502, preview.error);
        return jsonNoStore({ success: true, ...preview });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/sheet/import",
      async ({ request, admin }) => {
        // Scripts wait for the import (its save under the request's deadline); the console runs the same job in the background.
        const outcome = await importSpreadsheetJob(deps, actorOf(admin), () => {}, requestDeadline(request));
        if (!outcome.ok) {
          const report = outcome.result?.report;
          return report ? refusalJson(refused("invalid", outcome.message, { report })) : refusalAnswer(502, outcome.message);
        }
        return jsonNoStore({ success: true, message: outcome.message, ...outcome.result });
      },
      { isAdmin: true, parse: "none" },
    )
    .get("/api/admin/backups", async () => jsonNoStore({ success: true, backups: await listBackups(deps.db) }), { isAdmin: true })
    .post(
      "/api/admin/backups",
      async () => {
        const created = await createBackup(deps.db, { createdBy: "admin-panel", trigger: "manual", now: deps.now() });
        if (created.skipped) return jsonNoStore({ success: true, skipped: true, message: created.message, backup: null, prunedCount: 0 });
        return jsonNoStore({ success: true, message: created.message, backup: created.backup, prunedCount: created.prunedCount }, 201);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/backups/restore",
      async ({ request }) => {
        const body = await readObjectBody(request);
        if (body.id !== undefined && body.id !== null && typeof body.id !== "string") {
          throw new ValidationError("Invalid request body", [{ field: "id", message: "The backup id must be a string" }]);
        }
        const outcome = await restoreAndRevalidate(deps, typeof body.id === "string" && body.id.trim() ? body.id.trim() : undefined);
        if (!outcome.ok) return refusalJson(refused("not_found", outcome.message));
        return jsonNoStore({ success: true, message: outcome.message, ...outcome.result });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/revalidate",
      async () => {
        const { durationMs, message, source, count } = await revalidateNow(deps);
        return jsonNoStore({ success: true, durationMs, message, source, eventCount: count });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/recovery/:action",
      async ({ request, params, admin }) => {
        switch (params.action) {
          case "rebuild-coordinates": {
            const outcome = await rebuildCoordinates(deps);
            return jsonNoStore({ success: true, message: outcome.message, ...outcome.result });
          }
          case "reset-coordinates":
            return jsonNoStore({ success: true, ...(await resetCoordinateCache(deps)) });
          case "load-local-csv": {
            const outcome = await loadLocalCsv(deps, actorOf(admin));
            if (!outcome.ok) return refusalJson(refused("invalid", outcome.message));
            return jsonNoStore({ success: true, message: outcome.message, ...outcome.result });
          }
          case "clear-store": {
            const body = await readObjectBody(request);
            if (body.confirm !== CLEAR_STORE_CONFIRMATION) throw new ValidationError("Invalid request body", [{ field: "confirm", message: OPERATION_MESSAGES.clearConfirm }]);
            const outcome = await clearStoreWithSnapshot(deps);
            return jsonNoStore({ success: true, message: outcome.message, ...outcome.result });
          }
        }
        return refusalJson(refused("not_found", "Not found"));
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      "/api/admin/jobs/:id",
      ({ params }) => {
        const job = deps.jobs.get(params.id);
        if (!job) return refusalJson(refused("not_found", "Job not found"));
        return jsonNoStore({ success: true, job });
      },
      { isAdmin: true },
    );
}
