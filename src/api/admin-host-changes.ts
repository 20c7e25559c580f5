// Admin API of the hosts' edit links and proposed changes (see docs/host-edit-link.md): the
// proposals with their diff, accept, refuse with a reason, and revoke or issue an edit link.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, readObjectBody, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { acceptChanges, listChangeRequests, refuseChanges, type ReviewResult } from "../lib/submissions/host-changes.ts";
import { reissueEditLink, revokeEditLinks } from "../lib/submissions/host-links.ts";

const STATUSES = ["pending", "accepted", "refused"] as const;

function reviewJson(result: ReviewResult): Response {
  if (result.ok) return jsonNoStore({ success: true, request: result.request, ...(result.warning ? { warning: result.warning } : {}) });
  if (result.reason === "invalid") return refusalJson(refused("invalid", result.error, { issues: [{ field: "reason", message: result.error }] }));
  return refusalJson(result);
}

/**
 * GET /api/admin/changes?status=, POST /api/admin/changes/:id/accept, POST /api/admin/changes/:id/refuse,
 * POST /api/admin/submissions/:id/edit-link (issue a new one), POST /api/admin/submissions/:id/edit-link/revoke
 */
export function adminHostChangesApi(deps: Deps) {
  return new Elysia({ name: "admin-host-changes-api" })
    .use(adminGuard(deps))
    .get(
      "/api/admin/changes",
      async ({ query }) => {
        const status = (query.status ?? "pending") as (typeof STATUSES)[number];
        if (!STATUSES.includes(status)) throw new ValidationError("Invalid query", [{ field: "status", message: `status must be one of ${STATUSES.join(", ")}` }]);
        const views = await listChangeRequests(deps.db, status);
        return jsonNoStore({
          success: true,
          status,
          changes: views.map((v) => ({ ...v.request, title: v.title, published: v.published, fields: v.fields })),
        });
      },
      { isAdmin: true },
    )
    .post("/api/admin/changes/:id/accept", async ({ params, admin }) => reviewJson(await acceptChanges(deps, params.id, actorOf(admin))), { isAdmin: true, parse: "none" })
    .post(
      "/api/admin/changes/:id/refuse",
      async ({ request, params, admin }) => {
        const body = await readObjectBody(request);
        return reviewJson(await refuseChanges(deps, params.id, body.reason, actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/submissions/:id/edit-link",
      async ({ params, admin }) => {
        const result = await reissueEditLink(deps, params.id, actorOf(admin));
        return result.ok ? jsonNoStore({ success: true, linkId: result.linkId, editUrl: result.url }) : refusalJson(result);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/submissions/:id/edit-link/revoke",
      async ({ params, admin }) => {
        const result = await revokeEditLinks(deps, params.id, actorOf(admin));
        return result.ok ? jsonNoStore({ success: true, revoked: result.revoked }) : refusalJson(result);
      },
      { isAdmin: true, parse: "none" },
    );
}
