// What a visitor is told about an event's state at a given moment (see docs/public-pages.md,
// "Status markers"): its status when it is not simply scheduled, "updated HH:MM" when a publish
// moved its date, time or venue, and "new" for the first day after it was first published. One
// reading for the card, the modal, My night and the map.

import type { EventStatus, LiveEvent } from "../sheet/types.ts";
import { parisClock, parisDate } from "../paris-time.ts";

/** How long a newly published event is marked "new". */
export const NEW_FOR_MS = 24 * 60 * 60 * 1000;

/** The markers of one event at `now`. */
export interface StatusMarks {
  /** Set when the status is not "scheduled". */
  status: Exclude<EventStatus, "scheduled"> | null;
  note: string;
  /** Paris time (and date when not today) of the last noticed change, when there was one. */
  updated: { time: string; date: string | null } | null;
  isNew: boolean;
}

/** The markers of an event at an instant. */
export function statusMarks(event: Pick<LiveEvent, "status" | "statusNote" | "changedAt" | "firstPublishedAt">, now: Date): StatusMarks {
  const changed = event.changedAt ? new Date(event.changedAt) : null;
  const first = event.firstPublishedAt ? Date.parse(event.firstPublishedAt) : NaN;
  const updatedDate = changed ? parisDate(changed) : null;
  return {
    status: event.status === "scheduled" ? null : event.status,
    note: event.status === "scheduled" ? "" : event.statusNote,
    updated: changed && changed.getTime() <= now.getTime() ? { time: parisClock(changed), date: updatedDate === parisDate(now) ? null : updatedDate } : null,
    isNew: Number.isFinite(first) && now.getTime() - first >= 0 && now.getTime() - first < NEW_FOR_MS,
  };
}

/** The list with cancelled events moved to its end, order kept on each side. */
export function cancelledLast<E extends Pick<LiveEvent, "status">>(events: readonly E[]): E[] {
  const on: E[] = [];
  const off: E[] = [];
  for (const event of events) (event.status === "cancelled" ? off : on).push(event);
  return off.length ? [...on, ...off] : [...on];
}
