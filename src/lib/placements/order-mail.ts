// The messages an activated order queues (see docs/email.md, "Messages"): confirmed at once,
// started at the window's start and ended at its end; the outbox worker checks, when each is due,
// that the order is still activated and the moment has come.

import type { Config } from "../config.ts";
import type { NewMessage } from "../mail/outbox.ts";
import { partnerStatsUrl, type OrderRecord } from "./orders.ts";

/** The dedupe-key prefix of an order's messages (cancelled together when the order is revoked). */
export function orderMessagePrefix(orderId: string): string {
  return `order:${orderId}:`;
}

/** An activated order's three messages; none without a customer email. */
export function orderMessages(config: Pick<Config, "siteUrl" | "basePath">, order: OrderRecord): NewMessage[] {
  const statsUrl = partnerStatsUrl(config, order);
  if (!order.customerEmail || !statsUrl || !order.fulfilledStartAt || !order.fulfilledEndAt) return [];
  const base = { recipient: order.customerEmail, language: order.language };
  const eventName = order.eventName ?? order.fulfilledEventKey ?? "";
  const tier = order.fulfilledTier ?? "promoted";
  const startAt = order.fulfilledStartAt.toISOString();
  const endAt = order.fulfilledEndAt.toISOString();
  const prefix = orderMessagePrefix(order.id);
  return [
    { ...base, kind: "order_confirmed", dedupeKey: `${prefix}confirmed`, params: { eventName, tier, startAt, endAt, statsUrl } },
    { ...base, kind: "placement_started", dedupeKey: `${prefix}started`, notBefore: order.fulfilledStartAt, params: { orderId: order.id, eventName, tier, endAt, statsUrl } },
    { ...base, kind: "placement_ended", dedupeKey: `${prefix}ended`, notBefore: order.fulfilledEndAt, params: { orderId: order.id, eventName, tier, endAt, statsUrl } },
  ];
}
