// Audience figures for the partner page hero: distinct visitor sessions and event opens over the
// last 30 days, and all-time calendar saves, from the first-party engagement records (see docs/tracking.md).

import { count, countDistinct, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { engagementInteractions } from "../db/schema/index.ts";

export const AUDIENCE_WINDOW_DAYS = 30;

export interface AudienceFigures {
  /** Distinct session ids with any interaction in the window. */
  visitors: number;
  /** Event opens (click records) in the window. */
  eventOpens: number;
  /** Calendar files downloaded, all time (the "people saved this" total). */
  calendarSaves: number;
}

/** Reads the figures in two grouped queries. */
export async function readAudienceFigures(db: Db, now: Date): Promise<AudienceFigures> {
  const since = new Date(now.getTime() - AUDIENCE_WINDOW_DAYS * 86400_000);
  const [recent] = await db
    .select({
      visitors: countDistinct(engagementInteractions.sessionId),
      eventOpens: sql<number>`count(*) filter (where ${engagementInteractions.actionType} = 'click')`,
    })
    .from(engagementInteractions)
    .where(gte(engagementInteractions.recordedAt, since));
  const [saves] = await db.select({ n: count() }).from(engagementInteractions).where(eq(engagementInteractions.actionType, "calendar_sync"));
  return { visitors: Number(recent?.visitors ?? 0), eventOpens: Number(recent?.eventOpens ?? 0), calendarSaves: Number(saves?.n ?? 0) };
}
