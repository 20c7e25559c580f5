// The payment webhook (see docs/placements.md, "Payment webhook"): signature over the raw bytes,
// then the envelope, then a pending order for each completed checkout, once per provider event id.

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { isPlainObject, UNAVAILABLE_HEADERS } from "../http.ts";
import { isDatabaseUnreachable } from "../db/errors.ts";
import { webhookEvents } from "../db/schema/index.ts";
import { verifyPaymentSignature } from "./payment-signature.ts";
import { insertPaymentOrder, orderFromCheckoutSession } from "./orders.ts";

export interface WebhookDeps {
  config: Pick<Config, "paymentWebhookSecret" | "paymentLinkPackages">;
  db: Db;
  log: Logger;
  now: () => Date;
}

/** The answer of the webhook: status and JSON body. */
export interface WebhookAnswer {
  status: number;
  body: { error: string } | { ok: true; handled: boolean; inserted: boolean };
  headers?: Record<string, string>;
}

const NOT_HANDLED: WebhookAnswer = { status: 200, body: { ok: true, handled: false, inserted: false } };

/** Provider ids and types are short; longer values cannot be a real envelope (and would not fit an index). */
function isEnvelopeText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000");
}

/** The one event type that creates an order. */
export const CHECKOUT_COMPLETED = "checkout.session.completed";

/** Handles one delivery, in the order: configured, signature, JSON, envelope, type, order. */
export async function handlePaymentWebhook(deps: WebhookDeps, rawBody: Uint8Array, signatureHeader: string | null): Promise<WebhookAnswer> {
  const secret = deps.config.paymentWebhookSecret;
  if (!secret) return { status: 503, body: { error: "Webhook not configured" } };
  if (!verifyPaymentSignature(rawBody, signatureHeader, secret, Math.floor(deps.now().getTime() / 1000))) {
    return { status: 400, body: { error: "Invalid signature" } };
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody));
  } catch {
    return { status: 400, body: { error: "Invalid payload" } };
  }
  if (!isPlainObject(envelope) || !isEnvelopeText(envelope.id) || !isEnvelopeText(envelope.type) || !isPlainObject(envelope.data) || !isPlainObject(envelope.data.object)) {
    return NOT_HANDLED;
  }
  const { id, type } = envelope;
  const session = envelope.data.object;
  try {
    await deps.db.insert(webhookEvents).values({ eventId: id, type, receivedAt: deps.now() }).onConflictDoNothing();
    if (type !== CHECKOUT_COMPLETED) return NOT_HANDLED;
    const inserted = await insertPaymentOrder(deps.db, orderFromCheckoutSession(id, type, session, deps.config.paymentLinkPackages), deps.now());
    deps.log.info("webhook", inserted ? "Paid order created" : "Redelivery ignored: order already exists", { type });
    return { status: 200, body: { ok: true, handled: true, inserted } };
  } catch (error) {
    // The provider redelivers on any 5xx: while the database is down a 503 says "later", not "broken".
    if (isDatabaseUnreachable(error)) {
      deps.log.warn("webhook", "Webhook deferred: the database is down; the provider will redeliver", { type });
      return { status: 503, body: { error: "Service temporarily unavailable" }, headers: { ...UNAVAILABLE_HEADERS } };
    }
    deps.log.error("webhook", "Webhook processing failed", { type }, error);
    return { status: 500, body: { error: "Webhook processing failed" } };
  }
}
