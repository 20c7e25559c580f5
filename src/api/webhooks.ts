// The payment provider's webhook (see docs/placements.md, "Payment webhook"). The body is read as
// raw bytes: the signature covers them exactly, so nothing may parse them first.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { json, refusalHeaders, statusOf, withBodyCap } from "../lib/http/responses.ts";

/** The largest webhook body read (a checkout event is a few KiB); longer ones are 413 unread. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
import { handlePaymentWebhook } from "../lib/placements/webhook.ts";
import { requestDeadline } from "../lib/db/write-deadline.ts";

/** POST /api/webhooks/payment */
export function webhooksApi(deps: Deps) {
  return new Elysia({ name: "webhooks-api" }).post(
    "/api/webhooks/payment",
    async ({ request }) => {
      const capped = await withBodyCap(request, WEBHOOK_MAX_BODY_BYTES);
      if (capped === "too_large") return json({ error: "Request body too large" }, 413);
      const raw = new Uint8Array(await capped.arrayBuffer());
      const answer = await handlePaymentWebhook(deps, raw, request.headers.get("payment-signature"), requestDeadline(request));
      // The provider reads `{error}` on a refusal (no `success` field: this is its wire format).
      if (!answer.ok) return json({ error: answer.error }, statusOf(answer.reason), refusalHeaders(answer.reason));
      return json(answer);
    },
    {
      parse: "none",
      detail: { tags: ["site"], summary: "Payment provider webhook", description: "Stripe-compatible events signed in the `payment-signature` header over the raw body (at most 256 KiB, else 413); activates paid placements. 400 on a bad signature or payload, 503 while no webhook secret is set or the database is down (with Retry-After; the provider redelivers)." },
    },
  );
}
