// Admin JSON API for the email outbox and the activity timeline (see docs/email.md, "Console and
// API", and docs/console.md, "Activity"): list messages with counts, read one with both parts,
// resend one; list admin actions with filters.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { ValidationError } from "../lib/http/errors.ts";
import { findOutboxMessage, isOutboxStatus, listOutbox, resendFromConsole } from "../lib/mail/outbox.ts";
import { outboxMessageJson } from "../lib/mail/worker.ts";
import { activityJson, listActivity, parseActivityFilter } from "../lib/admin/activity.ts";

/** GET /api/admin/outbox, GET /api/admin/outbox/:id, POST /api/admin/outbox/:id/resend, GET /api/admin/activity */
export function adminMailApi(deps: Deps) {
  return new Elysia({ name: "admin-mail-api" })
    .use(adminGuard(deps))
    .get(
      "/api/admin/outbox",
      async ({ query }) => {
        const status = query.status;
        if (status !== undefined && status !== "" && !isOutboxStatus(status)) throw new ValidationError("Unknown status", [{ field: "status", message: "Use queued, sending, sent, failed or cancelled" }]);
        const { messages, counts } = await listOutbox(deps.db, isOutboxStatus(status) ? status : undefined);
        return jsonNoStore({ success: true, smtpConfigured: deps.outbox.enabled, counts, messages: messages.map((m) => outboxMessageJson(deps.config, m)) });
      },
      { isAdmin: true },
    )
    .get(
      "/api/admin/outbox/:id",
      async ({ params }) => {
        const message = await findOutboxMessage(deps.db, params.id);
        if (!message) return refusalJson(refused("not_found", "Message not found"));
        return jsonNoStore({ success: true, message: outboxMessageJson(deps.config, message, true) });
      },
      { isAdmin: true },
    )
    .post(
      "/api/admin/outbox/:id/resend",
      async ({ params, admin }) => {
        const result = await resendFromConsole(deps, params.id, actorOf(admin));
        return result.ok ? jsonNoStore({ success: true, message: outboxMessageJson(deps.config, result.message) }) : refusalJson(result);
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      "/api/admin/activity",
      async ({ query }) => {
        const parsed = parseActivityFilter(query);
        if (!parsed.ok) throw new ValidationError(parsed.error, [{ field: "query", message: parsed.error }]);
        return jsonNoStore({ success: true, entries: (await listActivity(deps.db, parsed.filter)).map(activityJson) });
      },
      { isAdmin: true },
    );
}
