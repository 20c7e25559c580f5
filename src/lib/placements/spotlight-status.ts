// The public spotlight status of /feature-event: live and recently ended (48 h) spotlight
// placements and how many of the concurrent slots are free right now (see docs/placements.md and
// docs/public-pages.md, "/feature-event").

import { and, count, eq, gt, inArray, lte, min } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { spotlightSchedule } from "../db/schema/index.ts";

export const RECENTLY_ENDED_HOURS = 48;

/** One placement as the public status shows it. */
export interface SpotlightStatusEntry {
  eventKey: string;
  eventName: string;
  startAt: string;
  endAt: string;
  state: "active" | "recent-ended";
}

export interface SpotlightStatus {
  entries: SpotlightStatusEntry[];
  activeCount: number;
  slots: number;
  slotsLeft: number;
  /** Scheduled spotlights that have not started yet (queued or booked ahead). */
  queuedCount: number;
  /** When the earliest of them starts (ISO), if any. */
  nextStartAt: string | null;
}

/** Reads the spotlight schedule around `now`; names come from `names` (lower-cased key → name), else the key. */
export async function readSpotlightStatus(db: Db, options: { now: Date; slots: number; names: Map<string, string> }): Promise<SpotlightStatus> {
  const since = new Date(options.now.getTime() - RECENTLY_ENDED_HOURS * 3600_000);
  const rows = await db
    .select({ eventKey: spotlightSchedule.eventKey, startAt: spotlightSchedule.effectiveStartAt, endAt: spotlightSchedule.effectiveEndAt })
    .from(spotlightSchedule)
    .where(and(inArray(spotlightSchedule.status, ["scheduled", "completed"]), lte(spotlightSchedule.effectiveStartAt, options.now), gt(spotlightSchedule.effectiveEndAt, since)));
  const entries = rows
    .filter((r): r is { eventKey: string; startAt: Date; endAt: Date } => r.startAt !== null && r.endAt !== null)
    .map((r) => ({
      eventKey: r.eventKey,
      eventName: options.names.get(r.eventKey.toLowerCase()) ?? r.eventKey,
      startAt: r.startAt.toISOString(),
      endAt: r.endAt.toISOString(),
      state: r.endAt > options.now ? ("active" as const) : ("recent-ended" as const),
    }))
    .sort((a, b) => (a.state === b.state ? (a.state === "active" ? a.endAt.localeCompare(b.endAt) : b.endAt.localeCompare(a.endAt)) : a.state === "active" ? -1 : 1));
  const activeCount = entries.filter((e) => e.state === "active").length;
  const [queue] = await db
    .select({ n: count(), next: min(spotlightSchedule.effectiveStartAt) })
    .from(spotlightSchedule)
    .where(and(eq(spotlightSchedule.status, "scheduled"), gt(spotlightSchedule.effectiveStartAt, options.now)));
  const next = queue?.next ? new Date(queue.next) : null;
  return {
    entries,
    activeCount,
    slots: options.slots,
    slotsLeft: Math.max(0, options.slots - activeCount),
    queuedCount: Number(queue?.n ?? 0),
    nextStartAt: next ? next.toISOString() : null,
  };
}

