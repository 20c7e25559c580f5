// /admin/operations/outbox and /admin/operations/activity (see docs/email.md, "Console and API",
// and docs/console.md, "Activity"): the outbox with Resend, one message in full, the timeline.

import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS, statusOf, privateFragment } from "../../../lib/http/responses.ts";
import { hxRedirect, isHtmx } from "../../../lib/http/htmx.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { NotFoundError, ValidationError } from "../../../lib/http/errors.ts";
import { findOutboxMessage, isOutboxStatus, listOutbox, resendFromConsole } from "../../../lib/mail/outbox.ts";
import { messageIdOf, senderOf } from "../../../lib/mail/worker.ts";
import { isMessageKind, renderMessage } from "../../../lib/mail/templates.ts";
import { listActivity, parseActivityFilter } from "../../../lib/admin/activity.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { ACTIVITY_PATH, ActivityCard, OUTBOX_PATH, OutboxCard, OutboxMessageCard, type OutboxCardProps } from "./mail.view.tsx";

/** GET /admin/operations/outbox[/:id], POST …/outbox/:id/resend, GET /admin/operations/activity */
export function mailRoutes(deps: Deps) {
  const cardProps = async (status: unknown, notice?: OutboxCardProps["notice"]): Promise<OutboxCardProps> => {
    const chosen = isOutboxStatus(status) ? status : undefined;
    const { messages, counts } = await listOutbox(deps.db, chosen);
    return { messages, counts, status: chosen, smtpConfigured: deps.outbox.enabled, notice };
  };
  return new Elysia({ name: "admin-mail-pages" })
    .use(adminPageGuard(deps))
    .get(
      OUTBOX_PATH,
      async ({ request, query }) => {
        if (query.status !== undefined && query.status !== "" && !isOutboxStatus(query.status)) throw new ValidationError("Unknown status", [{ field: "status", message: "Use queued, sending, sent, failed or cancelled" }]);
        const props = await cardProps(query.status);
        return consoleResponse(deps, request, "operations", "Email outbox", () => <OutboxCard {...props} />);
      },
      { isAdmin: true },
    )
    .get(
      `${OUTBOX_PATH}/:id`,
      async ({ request, params }) => {
        const message = await findOutboxMessage(deps.db, params.id);
        if (!message || !isMessageKind(message.kind)) throw new NotFoundError("Message not found");
        const rendered = renderMessage(message.kind, message.language, message.params);
        return consoleResponse(deps, request, "operations", "Email", () => <OutboxMessageCard message={message} rendered={rendered} messageId={messageIdOf(message, deps.config)} from={senderOf(deps.config)} />);
      },
      { isAdmin: true },
    )
    .post(
      `${OUTBOX_PATH}/:id/resend`,
      async ({ request, params, admin }) => {
        const result = await resendFromConsole(deps, params.id, actorOf(admin));
        if (!isHtmx(request)) {
          if (!result.ok && result.reason === "not_found") throw new NotFoundError(result.error);
          return hxRedirect(request, OUTBOX_PATH, NO_STORE_HEADERS);
        }
        const notice = result.ok ? { kind: "ok" as const, text: "Queued again: it leaves with the next outbox run." } : { kind: "error" as const, text: result.error };
        return privateFragment(<OutboxCard {...await cardProps(undefined, notice)} />, result.ok ? 200 : statusOf(result.reason));
      },
      { isAdmin: true, parse: "none" },
    )
    .get(
      ACTIVITY_PATH,
      async ({ request, query }) => {
        const parsed = parseActivityFilter(query);
        if (!parsed.ok) {
          const response = await consoleResponse(deps, request, "operations", "Activity timeline", () => <ActivityCard entries={[]} filter={{}} error={parsed.error} />);
          return new Response(response.body, { status: 400, headers: response.headers });
        }
        const entries = await listActivity(deps.db, parsed.filter);
        return consoleResponse(deps, request, "operations", "Activity timeline", () => <ActivityCard entries={entries} filter={parsed.filter} />);
      },
      { isAdmin: true },
    );
}
