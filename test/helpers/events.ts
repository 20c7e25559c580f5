// A complete LiveEvent for table-driven tests: neutral values that each test file overrides.

import type { LiveEvent } from "../../src/lib/events/types.ts";

/** The projection fields at their defaults (no placement, no saves). */
export const PROJECTION_DEFAULTS = {
  isFeatured: false,
  featuredAt: null,
  featuredEndsAt: null,
  isPromoted: false,
  promotedAt: null,
  promotedEndsAt: null,
  calendarSyncCount: 0,
} as const;

/** A single-day, dated, verified event on 21 June in the 11e; `overrides` replace any field. */
export function liveEvent(overrides: Partial<LiveEvent> = {}): LiveEvent {
  return {
    eventKey: "evt_aaaaaaaaaaaa",
    slug: "event",
    eventName: "Event",
    date: "2026-06-21",
    day: "sunday",
    time: "20:00",
    location: "Somewhere",
    arrondissement: 11,
    genres: [],
    nationality: [],
    venueTypes: [],
    price: "",
    priceValue: null,
    age: "",
    ageValue: null,
    link: null,
    curated: false,
    type: "Day Party",
    category: null,
    tags: [],
    description: "",
    seriesKey: null,
    occurrenceIndex: 1,
    occurrenceCount: 1,
    dateRangeStart: "2026-06-21",
    dateRangeEnd: "2026-06-21",
    verified: true,
    ...PROJECTION_DEFAULTS,
    ...overrides,
  };
}
