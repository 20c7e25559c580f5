// A complete LiveEvent for table-driven tests: neutral values that each test file overrides.

import type { LiveEvent } from "../../src/lib/sheet/types.ts";
import { PROJECTION_DEFAULTS } from "../../src/lib/sheet/sheet.ts";

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
    status: "scheduled",
    statusNote: "",
    firstPublishedAt: null,
    changedAt: null,
    sequence: 0,
    ...PROJECTION_DEFAULTS,
    ...overrides,
  };
}
