// The spotlight slot allocation (see docs/placements.md, "Spotlight slots"): started entries keep
// their windows, every other scheduled entry queues for the slot that frees earliest. Pure: the
// scheduler runs it inside its lock on every mutation and every listing.

/** A scheduled spotlight entry as the allocation reads it. */
export interface AllocationInput {
  id: string;
  eventKey: string;
  requestedStartAt: Date;
  createdAt: Date;
  durationHours: number;
  /** Null while unallocated (new or rescheduled). */
  effectiveStartAt: Date | null;
  effectiveEndAt: Date | null;
  slot: number | null;
}

/** The window and slot given to one entry. */
export interface Allocation {
  effectiveStartAt: Date;
  effectiveEndAt: Date;
  slot: number;
}

const HOUR_MS = 3_600_000;

/** True for an allocated entry whose effective start is at or before now: its window is frozen. */
export function hasStarted(entry: AllocationInput, now: Date): boolean {
  return entry.effectiveStartAt !== null && entry.effectiveEndAt !== null && entry.slot !== null && entry.effectiveStartAt.getTime() <= now.getTime();
}

/**
 * Allocates every scheduled entry to one of `slots` slots.
 * 1. Started entries are placed first, in effective-start order, into the slot that frees
 *    earliest; that slot is then busy until the entry's end. A started entry keeps the slot number
 *    it had while that slot is still free in this pass, so a running spotlight never changes slot
 *    (only the labels differ from "lowest number first"; every slot's free time is the same).
 * 2. The others, by requested start, then created_at, event key and id, each take the slot that
 *    frees earliest (lowest number on ties) and start at the latest of their requested start, that
 *    slot's free time and now; the slot is then busy until start + duration.
 */
export function allocateSpotlight(entries: readonly AllocationInput[], slots: number, now: Date): Map<string, Allocation> {
  const freeAt: number[] = Array.from({ length: Math.max(1, slots) }, () => Number.NEGATIVE_INFINITY);
  const result = new Map<string, Allocation>();
  const earliestSlot = () => {
    let best = 0;
    for (let i = 1; i < freeAt.length; i++) if (freeAt[i]! < freeAt[best]!) best = i;
    return best;
  };

  const started = entries.filter((e) => hasStarted(e, now)).sort((a, b) => a.effectiveStartAt!.getTime() - b.effectiveStartAt!.getTime() || a.id.localeCompare(b.id));
  const used = new Set<number>();
  for (const entry of started) {
    const own = entry.slot! - 1;
    const earliest = earliestSlot();
    const index = own >= 0 && own < freeAt.length && !used.has(own) && freeAt[own] === freeAt[earliest] ? own : earliest;
    used.add(index);
    freeAt[index] = entry.effectiveEndAt!.getTime();
    result.set(entry.id, { effectiveStartAt: entry.effectiveStartAt!, effectiveEndAt: entry.effectiveEndAt!, slot: index + 1 });
  }

  const queued = entries
    .filter((e) => !hasStarted(e, now))
    .sort(
      (a, b) =>
        a.requestedStartAt.getTime() - b.requestedStartAt.getTime() ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (a.eventKey < b.eventKey ? -1 : a.eventKey > b.eventKey ? 1 : 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  for (const entry of queued) {
    const index = earliestSlot();
    const start = Math.max(entry.requestedStartAt.getTime(), freeAt[index]!, now.getTime());
    const end = start + entry.durationHours * HOUR_MS;
    freeAt[index] = end;
    result.set(entry.id, { effectiveStartAt: new Date(start), effectiveEndAt: new Date(end), slot: index + 1 });
  }
  return result;
}
