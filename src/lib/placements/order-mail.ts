// The messages an activated order queues (see docs/email.md, "Messages"): confirmed at once,
// started at the window's start and ended at its end; the outbox worker checks, when each is due,
// that the order is still activated and the moment has come. The statistics link is not stored
// with them: the worker writes it out at send time from the order id (lib/mail/secret-links.ts).

import type { NewMessage } from "../mail/outbox.ts";
import type { OrderRecord } from "./orders.ts";

/** The dedupe-key prefix of an order's messages (cancelled together when the order is revoked). */
export function orderMessagePrefix(orderId: string): string {
  return `order:${orderId}:`;
}

/** An activated order's three messages; none without a customer email or a statistics link. */
export function orderMessages(order: OrderRecord): NewMessage[] {
  if (!order.customerEmail || !order.partnerStatsTokenHash || !order.fulfilledStartAt || !order.fulfilledEndAt) return [];
  const base = { recipient: order.customerEmail, language: order.language };
  const eventName = order.eventName ?? order.fulfilledEventKey ?? "";
  const tier = order.fulfilledTier ?? "promoted";
  const startAt = order.fulfilledStartAt.toISOString();
  const endAt = order.fulfilledEndAt.toISOString();
  const prefix = orderMessagePrefix(order.id);
  return [
    { ...base, kind: "order_confirmed", dedupeKey: `${prefix}confirmed`, params: { orderId: order.id, eventName, tier, startAt, endAt } },
    { ...base, kind: "placement_started", dedupeKey: `${prefix}started`, notBefore: order.fulfilledStartAt, params: { orderId: order.id, eventName, tier, endAt } },
    { ...base, kind: "placement_ended", dedupeKey: `${prefix}ended`, notBefore: order.fulfilledEndAt, params: { orderId: order.id, eventName, tier, endAt } },
  ];
}
