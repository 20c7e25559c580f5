// The payment webhook (see docs/placements.md, "Payment webhook"): signature over the raw bytes,
// then the envelope, then a pending order for each completed checkout, once per provider event id.

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { isPlainObject } from "../http/responses.ts";
import { refused, type Refused } from "../outcome.ts";
import { isDatabaseUnreachable } from "../db/errors.ts";
import { webhookEvents } from "../db/schema/index.ts";
import { verifyPaymentSignature } from "./payment-signature.ts";
import { insertPaymentOrder, orderFromCheckoutSession } from "./orders.ts";
import { DeadlinePassed, writeWithinDeadline, type WriteDeadline } from "../db/write-deadline.ts";

export interface WebhookDeps {
  config: Pick<Config, "paymentWebhookSecret" | "paymentLinkPackages">;
  db: Db;
  log: Logger;
  now: () => Date;
}

/**
 * The outcome of one delivery: handled (or knowingly ignored), or refused. "unavailable" tells the
 * provider to redeliver later; "invalid" is a delivery that will never be accepted.
 */
export type WebhookAnswer = { ok: true; handled: boolean; inserted: boolean } | Refused<"invalid" | "unavailable" | "failed">;

const NOT_HANDLED: WebhookAnswer = { ok: true, handled: false, inserted: false };

/** Provider ids and types are short; longer values cannot be a real envelope (and would not fit an index). */
function isEnvelopeText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000");
}

/** The one event type that creates an order. */
export const CHECKOUT_COMPLETED = "checkout.session.completed";

/**
 * Handles one delivery, in the order: configured, signature, JSON, envelope, type, order. The
 * delivery's record and its order are one transaction under the request's `deadline`
 * (src/lib/db/write-deadline.ts): a 503 means neither was written, and the provider's redelivery
 * of the same event id (the order's idempotency key) finds the order once it was.
 */
export async function handlePaymentWebhook(deps: WebhookDeps, rawBody: Uint8Array, signatureHeader: string | null, deadline?: WriteDeadline): Promise<WebhookAnswer> {
  const secret = deps.config.paymentWebhookSecret;
  if (!secret) return refused("unavailable", "Webhook not configured");
  if (!verifyPaymentSignature(rawBody, signatureHeader, secret, Math.floor(deps.now().getTime() / 1000))) {
    return refused("invalid", "Invalid signature");
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody));
  } catch {
    return refused("invalid", "Invalid payload");
  }
  if (!isPlainObject(envelope) || !isEnvelopeText(envelope.id) || !isEnvelopeText(envelope.type) || !isPlainObject(envelope.data) || !isPlainObject(envelope.data.object)) {
    return NOT_HANDLED;
  }
  const { id, type } = envelope;
  const session = envelope.data.object;
  try {
    const answer = await writeWithinDeadline(deps.db, deadline, async (tx): Promise<WebhookAnswer> => {
      await tx.insert(webhookEvents).values({ eventId: id, type, receivedAt: deps.now() }).onConflictDoNothing();
      if (type !== CHECKOUT_COMPLETED) return NOT_HANDLED;
      const inserted = await insertPaymentOrder(tx, orderFromCheckoutSession(id, type, session, deps.config.paymentLinkPackages), deps.now());
      return { ok: true, handled: true, inserted };
    });
    if (answer.ok && answer.handled) deps.log.info("webhook", answer.inserted ? "Paid order created" : "Redelivery ignored: order already exists", { type });
    return answer;
  } catch (error) {
    if (error instanceof DeadlinePassed) {
      deps.log.warn("webhook", "Webhook rolled back at the request deadline; the provider will redeliver", { type });
      return refused("unavailable", "Service temporarily unavailable");
    }
    // The provider redelivers on any 5xx: while the database is down a 503 says "later", not "broken".
    if (isDatabaseUnreachable(error)) {
      deps.log.warn("webhook", "Webhook deferred: the database is down; the provider will redeliver", { type });
      return refused("unavailable", "Service temporarily unavailable");
    }
    deps.log.error("webhook", "Webhook processing failed", { type }, error);
    return refused("failed", "Webhook processing failed");
  }
}
