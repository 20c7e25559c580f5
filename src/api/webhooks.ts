// The payment provider's webhook (see docs/placements.md, "Payment webhook"). The body is read as
// raw bytes: the signature covers them exactly, so nothing may parse them first.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { json, MAX_BODY_BYTES } from "../lib/http.ts";
import { handlePaymentWebhook } from "../lib/placements/webhook.ts";

/** POST /api/webhooks/payment */
export function webhooksApi(deps: Deps) {
  return new Elysia({ name: "webhooks-api" }).post(
    "/api/webhooks/payment",
    async ({ request }) => {
      const raw = new Uint8Array(await request.arrayBuffer());
      if (raw.byteLength > MAX_BODY_BYTES) return json({ error: "Request body too large" }, 413);
      const answer = await handlePaymentWebhook(deps, raw, request.headers.get("payment-signature"));
      return json(answer.body, answer.status);
    },
    {
      parse: "none",
      detail: { tags: ["site"], summary: "Payment provider webhook", description: "Stripe-compatible events signed in the `payment-signature` header over the raw body; activates paid placements. 400 on a bad signature or payload, 503 while no webhook secret is set." },
    },
  );
}
