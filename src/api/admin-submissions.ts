// Admin API of submission moderation (see docs/console-operations.md, "Event submissions"): lists
// per status with the dashboard counts, accept, decline, and the open/closed switch.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import {
  acceptSubmission,
  declineSubmission,
  listSubmissions,
  MODERATION_MESSAGES,
  submissionDashboard,
  SUBMISSION_STATUSES,
  type ModerationResult,
  type SubmissionStatus,
} from "../lib/submissions/moderation.ts";
import { publicSubmissionSettings, readSubmissionSettings, setSubmissionSettings } from "../lib/submissions/settings.ts";
import { readObjectBody } from "../lib/http/responses.ts";

/** The field a moderation refusal is about, for `issues`. */
function issueField(error: string): string {
  if (error === MODERATION_MESSAGES.reasonRequired) return "reason";
  if (error === MODERATION_MESSAGES.invalidEventKey) return "eventKey";
  return "note";
}

function moderationJson(result: ModerationResult): Response {
  if (result.ok) {
    return jsonNoStore({ success: true, submission: result.submission, ...(result.acceptedEventKey ? { eventKey: result.acceptedEventKey } : {}), ...(result.warning ? { warning: result.warning } : {}) });
  }
  if (result.reason === "invalid") return refusalJson(refused("invalid", result.error, { issues: [{ field: issueField(result.error), message: result.error }] }));
  return refusalJson(result);
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new ValidationError("Invalid request body", [{ field, message: `${field} must be a string` }]);
  return value;
}

/**
 * GET /api/admin/submissions?status=, POST /api/admin/submissions/:id/accept,
 * POST /api/admin/submissions/:id/decline, GET|PUT /api/admin/submissions/settings
 */
export function adminSubmissionsApi(deps: Deps) {
  return new Elysia({ name: "admin-submissions-api" })
    .use(adminGuard(deps))
    .get(
      "/api/admin/submissions",
      async ({ query }) => {
        const status = (query.status ?? "pending") as SubmissionStatus;
        if (!SUBMISSION_STATUSES.includes(status)) {
          throw new ValidationError("Invalid query", [{ field: "status", message: `status must be one of ${SUBMISSION_STATUSES.join(", ")}` }]);
        }
        const [submissions, counts] = await Promise.all([listSubmissions(deps.db, status), submissionDashboard(deps.db, deps.now())]);
        return jsonNoStore({ success: true, status, submissions, counts });
      },
      { isAdmin: true },
    )
    .get("/api/admin/submissions/settings", async () => jsonNoStore({ success: true, settings: publicSubmissionSettings(await readSubmissionSettings(deps.kv)) }), { isAdmin: true })
    .put(
      "/api/admin/submissions/settings",
      async ({ request, admin }) => {
        const body = await readObjectBody(request);
        if (typeof body.enabled !== "boolean") throw new ValidationError("Invalid request body", [{ field: "enabled", message: "enabled must be true or false" }]);
        const { settings, message } = await setSubmissionSettings(deps, body.enabled, actorOf(admin));
        return jsonNoStore({ success: true, message, settings: publicSubmissionSettings(settings) });
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/submissions/:id/accept",
      async ({ request, params, admin }) => {
        const body = await readObjectBody(request);
        const eventKey = optionalString(body, "eventKey");
        return moderationJson(await acceptSubmission(deps, params.id, { reviewedBy: actorOf(admin), eventKey }));
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/submissions/:id/decline",
      async ({ request, params, admin }) => {
        const body = await readObjectBody(request);
        const reason = optionalString(body, "reason") ?? "";
        const note = optionalString(body, "note");
        return moderationJson(await declineSubmission(deps, params.id, { reason, note, reviewedBy: actorOf(admin) }));
      },
      { isAdmin: true, parse: "none" },
    );
}
