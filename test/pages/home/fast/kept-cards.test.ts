// Kept event cards (pages/home/fast/kept-views.ts): a card the fast path rendered once per event
// object is shown again while its render context (the list, language, site and stretch of time)
// and its saved line and heading are the same. Each kept card is compared with a fresh render (a
// copy of the event is a new object, so nothing is kept for it) at every instant where what the
// card shows can change.

import { describe, expect, test } from "bun:test";
import { EventCard } from "../../../../src/pages/components/event-card.view.tsx";
import { keptPieces } from "../../../../src/pages/home/fast/kept-views.ts";
import { renderContextOf } from "../../../../src/pages/home/fast/render-context.ts";
import { FIXTURE_SHEET_CSV } from "../../../../src/lib/events/fixtures.ts";
import { parseEventSheet } from "../../../../src/lib/sheet/sheet.ts";
import { inLanguage, inSite, type Language } from "../../../../src/lib/i18n/index.ts";
import { parisInstant } from "../../../../src/lib/paris-time.ts";
import { eventSpan } from "../../../../src/lib/events/filter-moment.ts";
import type { LiveEvent } from "../../../../src/lib/sheet/types.ts";
import { liveEvent } from "../../../helpers/events.ts";

const MINUTE = 60_000;
const LANGUAGES: Language[] = ["fr", "en"];

const FEED = "https://finder.example/calendar.ics";
// One live list per event, the same one each time, so the fast path's cards kept for it are found again.
const LISTS = new WeakMap<LiveEvent, readonly LiveEvent[]>();
function listOf(event: LiveEvent): readonly LiveEvent[] {
  let list = LISTS.get(event);
  if (!list) LISTS.set(event, (list = [event]));
  return list;
}

/** The card the fast path draws (kept for its list and render context). */
function card(event: LiveEvent, now: Date, showSaved = false, headingLevel?: 3 | 4): string {
  return keptPieces(renderContextOf(listOf(event), now, FEED)).card({ event, now, showSaved, headingLevel }) as string;
}

/** A card drawn afresh. */
function freshCard(event: LiveEvent, now: Date, showSaved = false, headingLevel?: 3 | 4): string {
  return EventCard({ event, now, showSaved, headingLevel }) as string;
}

/** The kept card and a fresh render of the same event at `now`, in `language`. */
function keptAndFresh(event: LiveEvent, now: Date, language: Language, showSaved = false, headingLevel?: 3 | 4): [string, string] {
  return inLanguage(language, () => [card(event, now, showSaved, headingLevel), freshCard({ ...event }, now, showSaved, headingLevel)]);
}

// Sunday 21 June 2026, Paris (UTC+2): the evening event runs 20:00–23:00.
const START = parisInstant("2026-06-21", "20:00").getTime();
const FESTIVAL_NIGHT = new Date(parisInstant("2026-06-21", "21:30").getTime());

function evening(overrides: Partial<LiveEvent> = {}): LiveEvent {
  return liveEvent({ eventKey: "evt_kept00000001", eventName: "Evening", time: "20:00", endTime: "23:00", ...overrides });
}

/** Every minute from `from` to `to` (ms), plus a millisecond either side of each listed instant. */
function instants(from: number, to: number, edges: number[] = []): Date[] {
  const out: Date[] = [];
  for (let at = from; at <= to; at += MINUTE) out.push(new Date(at));
  for (const edge of edges) out.push(new Date(edge - 1), new Date(edge), new Date(edge + 1));
  return out;
}

describe("kept event cards", () => {
  test("the same text as a fresh render at every minute around an event's start and end, in both languages", () => {
    const event = evening();
    const span = eventSpan(event)!;
    const times = [
      ...instants(span.start - 25 * 60 * MINUTE, span.start - 23 * 60 * MINUTE, [span.start - 24 * 60 * MINUTE]),
      ...instants(span.start - 70 * MINUTE, span.end + 10 * MINUTE, [span.start, span.end, span.end - 60 * MINUTE]),
      ...instants(span.end + 6 * 60 * MINUTE - 5 * MINUTE, span.end + 6 * 60 * MINUTE + 5 * MINUTE, [span.end + 6 * 60 * MINUTE]),
      FESTIVAL_NIGHT,
    ];
    const seen = new Set<string>();
    for (const now of times) {
      for (const language of LANGUAGES) {
        const [kept, fresh] = keptAndFresh(event, now, language);
        expect(kept).toBe(fresh);
        seen.add(kept);
      }
    }
    // The sweep went through "in N min" for each of the 60 minutes and at least four other
    // readings (far with and without the clock, on, last hour, ended), in each language.
    expect(seen.size).toBeGreaterThanOrEqual(2 * (60 + 4));
  });

  test("the live state changes at the event's start minute, and the kept card with it", () => {
    const event = evening();
    const soon = inLanguage("en", () => card(event, new Date(START - MINUTE)));
    const on = inLanguage("en", () => card(event, new Date(START)));
    expect(soon).toContain("live-soon");
    expect(on).toContain("live-on");
    expect(inLanguage("en", () => card(event, new Date(START - 1)))).toContain("live-soon");
  });

  test("a spotlight or promotion window ending at any millisecond, a status change and the new mark", () => {
    const spotlightEnd = START + 30 * MINUTE + 500;
    const promotionEnd = START - 10 * MINUTE + 250;
    const changed = new Date(START - 90 * MINUTE - 7_000);
    const published = START - 24 * 60 * MINUTE + 45 * MINUTE + 3;
    const events = [
      evening({ isFeatured: true, featuredAt: new Date(START - 3600e3).toISOString(), featuredEndsAt: new Date(spotlightEnd).toISOString() }),
      evening({ eventKey: "evt_kept00000002", isPromoted: true, promotedAt: new Date(START - 3600e3).toISOString(), promotedEndsAt: new Date(promotionEnd).toISOString() }),
      evening({ eventKey: "evt_kept00000003", status: "moved", statusNote: "Now at the park", changedAt: changed.toISOString(), firstPublishedAt: new Date(published).toISOString() }),
      evening({ eventKey: "evt_kept00000004", status: "cancelled", statusNote: "Rain", curated: true }),
      // Changed the day before: "updated" carries its date until the Paris midnight.
      evening({ eventKey: "evt_kept00000005", changedAt: new Date(parisInstant("2026-06-20", "23:58").getTime()).toISOString() }),
    ];
    const midnight = parisInstant("2026-06-21", "00:00").getTime();
    const times = [
      ...instants(START - 100 * MINUTE, START + 40 * MINUTE, [spotlightEnd, promotionEnd, changed.getTime(), published + 24 * 60 * MINUTE]),
      ...instants(midnight - 3 * MINUTE, midnight + 3 * MINUTE, [midnight]),
      FESTIVAL_NIGHT,
    ];
    for (const event of events) {
      for (const now of times) {
        for (const language of LANGUAGES) {
          const [kept, fresh] = keptAndFresh(event, now, language);
          expect(kept).toBe(fresh);
        }
      }
    }
    const [featured] = events;
    expect(inLanguage("en", () => card(featured, new Date(spotlightEnd - 1)))).toContain("card-spotlight");
    expect(inLanguage("en", () => card(featured, new Date(spotlightEnd)))).not.toContain("card-spotlight");
  });

  test("every fixture event on festival night and the day after, with and without the saved line, both headings", () => {
    const parsed = parseEventSheet(FIXTURE_SHEET_CSV, { now: new Date("2026-06-01T10:00:00Z") });
    if (!parsed.ok) throw new Error(parsed.error);
    const times = [FESTIVAL_NIGHT, new Date(FESTIVAL_NIGHT.getTime() + 90 * MINUTE), new Date(FESTIVAL_NIGHT.getTime() + 14 * 60 * MINUTE)];
    for (const event of parsed.events) {
      for (const now of times) {
        for (const language of LANGUAGES) {
          for (const showSaved of [false, true]) {
            for (const heading of [undefined, 4 as const]) {
              const [kept, fresh] = keptAndFresh(event, now, language, showSaved, heading);
              expect(kept).toBe(fresh);
            }
          }
        }
      }
    }
  });

  test("the language and the site's base path switch the kept card", () => {
    const event = evening({ genres: ["house"] });
    const now = new Date(START - 3 * 60 * MINUTE);
    const french = inLanguage("fr", () => card(event, now));
    const english = inLanguage("en", () => card(event, now));
    expect(french).not.toBe(english);
    expect(inLanguage("fr", () => card(event, now))).toBe(french);
    const under = (basePath: string, language: Language) => inSite({ basePath, rootLanguage: "fr" }, language, "/", () => [card(event, now), freshCard({ ...event }, now)]);
    for (const basePath of ["", "/fete"]) {
      for (const language of LANGUAGES) {
        const [kept, fresh] = under(basePath, language);
        expect(kept).toBe(fresh);
      }
    }
    expect(under("/fete", "en")[0]).toContain('href="/fete/en/event/');
    expect(under("", "fr")[0]).toContain('href="/event/');
  });
});
