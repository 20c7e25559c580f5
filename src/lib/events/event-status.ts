// What a visitor is told about an event's state at a given moment (see docs/public-pages.md,
// "Status markers"): its status when it is not simply scheduled, "updated HH:MM" when a publish
// moved its date, time or venue, "new" for the first day after it was first published, and its
// live state at the Paris minute ("on until 23:00", "last hour", "in 20 min", "ended"). One
// reading for the card, the modal, My night and the map.

import type { EventStatus, LiveEvent } from "../sheet/types.ts";
import { parisClock, parisDate } from "../paris-time.ts";
import { eventSpan } from "./filter-moment.ts";

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

/** A running event reads "last hour" when this little is left; a coming one "in N min" from this far. */
export const LIVE_SOON_MS = 60 * 60 * 1000;
/** How long after its end an event still reads "ended" (later, the Finished divider says it). */
export const LIVE_ENDED_MS = 6 * 60 * 60 * 1000;
/** Cards carry their live state when they start or end this close to the render (the browser keeps it current). */
export const LIVE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Where an event stands at a Paris minute: on (until HH:MM), in its last hour, starting soon, just ended, or none of these. */
export type LiveState = { kind: "on"; until: string } | { kind: "lastHour" } | { kind: "soon"; minutes: number } | { kind: "ended" } | null;

/** The live state of an event at `now`, from its span (see eventSpan). */
export function liveState(event: Pick<LiveEvent, "date" | "time" | "endTime" | "status">, now: Date): LiveState {
  const span = liveSpan(event);
  if (!span) return null;
  const at = now.getTime();
  const kind = liveKindAt(span, at);
  if (kind === "on") return { kind, until: parisClock(new Date(span.end)) };
  if (kind === "soon") return { kind, minutes: soonMinutes(span, at) };
  return kind === null ? null : { kind };
}

/** What the browser needs to keep a card's live state current: the span and its end as HH:MM; null far from now. */
export function liveClock(event: Pick<LiveEvent, "date" | "time" | "endTime" | "status">, now: Date): { start: number; end: number; until: string } | null {
  const span = liveSpan(event);
  if (!span || !clockShownAt(span, now.getTime())) return null;
  return { start: span.start, end: span.end, until: parisClock(new Date(span.end)) };
}

// The span a live state is read from: none for a cancelled event or one without a valid date.
function liveSpan(event: Pick<LiveEvent, "date" | "time" | "endTime" | "status">): Readonly<{ start: number; end: number }> | null {
  return event.status === "cancelled" ? null : eventSpan(event);
}

function liveKindAt(span: { start: number; end: number }, at: number): "on" | "lastHour" | "soon" | "ended" | null {
  if (at >= span.end) return at - span.end < LIVE_ENDED_MS ? "ended" : null;
  if (at >= span.start) return span.end - at <= LIVE_SOON_MS ? "lastHour" : "on";
  return span.start - at <= LIVE_SOON_MS ? "soon" : null;
}

function soonMinutes(span: { start: number }, at: number): number {
  return Math.max(1, Math.ceil((span.start - at) / 60_000));
}

function clockShownAt(span: { start: number; end: number }, at: number): boolean {
  return !(span.start - at > LIVE_WINDOW_MS || at - span.end > LIVE_ENDED_MS);
}

/** "Happening now" ends soonest first; "Tonight" starts first; order kept otherwise and on ties. */
export function orderForMoment<E extends Pick<LiveEvent, "date" | "time" | "endTime">>(events: readonly E[], moment: "now" | "tonight"): E[] {
  const keyed = events.map((event, index) => ({ event, index, span: eventSpan(event) }));
  const at = (span: { start: number; end: number } | null) => (span ? (moment === "now" ? span.end : span.start) : Number.POSITIVE_INFINITY);
  keyed.sort((a, b) => at(a.span) - at(b.span) || a.index - b.index);
  return keyed.map((k) => k.event);
}
