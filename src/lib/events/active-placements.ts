// Whether a live event's paid placement is showing now. The live read projects the scheduler's
// windows onto the events (isFeatured/featuredEndsAt, isPromoted/promotedEndsAt); a cached page can
// outlive a window, so views check the end against the clock and treat it as authoritative.

import type { LiveEvent } from "../sheet/types.ts";

/** True while an event's spotlight window is open (the end time is authoritative). */
export function isActiveSpotlight(event: LiveEvent, now: Date): boolean {
  if (!event.isFeatured) return false;
  return event.featuredEndsAt === null || Date.parse(event.featuredEndsAt) > now.getTime();
}

/** True while an event's promoted window is open. */
export function isActivePromotion(event: LiveEvent, now: Date): boolean {
  if (!event.isPromoted) return false;
  return event.promotedEndsAt === null || Date.parse(event.promotedEndsAt) > now.getTime();
}
