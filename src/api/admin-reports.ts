// Admin API of visitors' reports (see docs/console.md, "Reports from visitors"): open reports
// grouped by event, "mark cancelled" and "dismiss" per event.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { dismissReports, listOpenReports, markReportedCancelled, type ReportActionResult } from "../lib/reports/moderation.ts";

function actionJson(result: ReportActionResult, extra: Record<string, unknown> = {}): Response {
  if (!result.ok) return refusalJson(result);
  return jsonNoStore({ success: true, eventKey: result.eventKey, title: result.title, ...extra });
}

/** GET /api/admin/reports[?spam=include], POST /api/admin/reports/:eventKey/cancel, POST /api/admin/reports/:eventKey/dismiss */
export function adminReportsApi(deps: Deps) {
  return new Elysia({ name: "admin-reports-api" })
    .use(adminGuard(deps))
    .get("/api/admin/reports", async ({ query }) => jsonNoStore({ success: true, ...(await listOpenReports(deps.db, { includeSpam: query.spam === "include" })) }), { isAdmin: true })
    .post(
      "/api/admin/reports/:eventKey/cancel",
      async ({ params, admin }) => {
        const result = await markReportedCancelled(deps, params.eventKey, actorOf(admin));
        return actionJson(result, result.ok ? { status: "cancelled", note: result.note ?? "", resolved: result.count } : {});
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/reports/:eventKey/dismiss",
      async ({ params, admin }) => {
        const result = await dismissReports(deps, params.eventKey, actorOf(admin));
        return actionJson(result, result.ok ? { dismissed: result.count } : {});
      },
      { isAdmin: true, parse: "none" },
    );
}
