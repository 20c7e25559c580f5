// The placement's own history on the partner's statistics page (see docs/placements.md, "Partner
// statistics"): the timeline entries about this order and its window, worded for the partner and
// never naming the admin who acted.

import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { outboxMessages, paidOrders } from "../db/schema/index.ts";
import { listActivity } from "../admin/activity.ts";
import { orderMessagePrefix } from "./order-mail.ts";

export interface PlacementMoment {
  at: Date;
  label: string;
}

const ACTION_LABELS: Record<string, string> = {
  "order.fulfil": "Placement booked",
  "order.status": "Order status changed",
};

const MESSAGE_LABELS: Record<string, string> = {
  order_confirmed: "Confirmation email sent",
  placement_started: "Start email sent",
  placement_ended: "End email sent",
};

/** The moments of one activation, oldest first. */
export async function placementMoments(deps: { db: Db; now: () => Date }, orderId: string): Promise<PlacementMoment[]> {
  const [order] = await deps.db.select().from(paidOrders).where(eq(paidOrders.id, orderId)).limit(1);
  if (!order) return [];
  const now = deps.now().getTime();
  const moments: PlacementMoment[] = [];
  for (const entry of await listActivity(deps.db, { targetType: "order", targetId: orderId, outcome: "ok" })) {
    const label = ACTION_LABELS[entry.action];
    if (label) moments.push({ at: entry.at, label });
  }
  if (order.fulfilledStartAt) moments.push({ at: order.fulfilledStartAt, label: order.fulfilledStartAt.getTime() <= now ? "Placement started" : "Placement starts" });
  if (order.fulfilledEndAt) moments.push({ at: order.fulfilledEndAt, label: order.fulfilledEndAt.getTime() <= now ? "Placement ended" : "Placement ends" });
  const sent = await deps.db
    .select({ kind: outboxMessages.kind, sentAt: outboxMessages.sentAt })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.status, "sent"), sql`starts_with(${outboxMessages.dedupeKey}, ${orderMessagePrefix(orderId)})`));
  for (const message of sent) if (message.sentAt && MESSAGE_LABELS[message.kind]) moments.push({ at: message.sentAt, label: MESSAGE_LABELS[message.kind] });
  return moments.sort((a, b) => a.at.getTime() - b.at.getTime());
}
