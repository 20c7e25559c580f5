// The render context's key holds everything a kept card, chip or results fragment shows
// (pages/home/fast/render-context.ts, kept-views.ts): over every minute of festival night (21 June,
// 18:00 to 06:00 Paris, at the first and the last millisecond of each minute, on an injected
// clock), in both languages and several filter states, each piece is drawn afresh and through the
// fast path. The test fails when the fast path's piece is not the fresh one, and when a piece's
// fresh output changes while its key stays the same (the key is missing something it depends on).

import { describe, expect, test } from "bun:test";
import { FIXTURE_SHEET_CSV } from "../../../../src/lib/events/fixtures.ts";
import { parseEventSheet } from "../../../../src/lib/sheet/sheet.ts";
import { inSite, type Language } from "../../../../src/lib/i18n/index.ts";
import { parisInstant } from "../../../../src/lib/paris-time.ts";
import { markup } from "../../../../src/lib/http/responses.ts";
import type { LiveEvent } from "../../../../src/lib/sheet/types.ts";
import { homeFiltersOf, homeListing, type HomeListing } from "../../../../src/pages/home/listing.ts";
import { HomeResults, PLAIN_PIECES } from "../../../../src/pages/home/home.view.tsx";
import { renderContextOf, type RenderContext } from "../../../../src/pages/home/fast/render-context.ts";
import { cardKey, chipsKey, keptPieces } from "../../../../src/pages/home/fast/kept-views.ts";
import { searchResultsBody, templateKey } from "../../../../src/pages/home/fast/results-template.ts";
import { liveEvent } from "../../../helpers/events.ts";

const MINUTE = 60_000;
const LANGUAGES: Language[] = ["fr", "en"];
const FEED = "https://finder.example/calendar.ics";
const SITE = { basePath: "", rootLanguage: "fr" as const };
// Filter states without a search (cards and chips) and with one (a results template each).
const STATES = ["", "g=house", "when=now", "pr=0:0&when=tonight", "dn=night&arr=11"];
const SEARCHES = ["g=house&q=nuit", "q=somewhere", "q=pop"];

const at = (date: string, time: string, plusMs = 0) => new Date(parisInstant(date, time).getTime() + plusMs).toISOString();

/** The fixture sheet and events whose marks change within a minute of the night. */
function nightList(): readonly LiveEvent[] {
  const parsed = parseEventSheet(FIXTURE_SHEET_CSV, { now: new Date("2026-06-01T10:00:00Z") });
  if (!parsed.ok) throw new Error(parsed.error);
  return [
    ...parsed.events,
    liveEvent({ eventKey: "evt_night0000001", eventName: "Spotlight", time: "21:00", endTime: "23:30", isFeatured: true, featuredAt: at("2026-06-21", "12:00"), featuredEndsAt: at("2026-06-21", "21:17", 30_500) }),
    liveEvent({ eventKey: "evt_night0000002", eventName: "Promoted", time: "22:00", endTime: "01:00", isPromoted: true, promotedAt: at("2026-06-21", "12:00"), promotedEndsAt: at("2026-06-21", "23:41", 12_250) }),
    liveEvent({ eventKey: "evt_night0000003", eventName: "Moved", time: "19:30", endTime: "22:15", status: "moved", statusNote: "Now at the park", changedAt: at("2026-06-21", "19:05", 7_000) }),
    liveEvent({ eventKey: "evt_night0000004", eventName: "Fresh", time: "23:00", endTime: "02:00", firstPublishedAt: at("2026-06-20", "22:13", 45_003) }),
    liveEvent({ eventKey: "evt_night0000005", eventName: "Called off", time: "20:00", endTime: "23:00", status: "cancelled", statusNote: "Rain", curated: true }),
  ];
}

/** Every minute of the night, at its first and its last millisecond, in order. */
function nightInstants(): Date[] {
  const from = parisInstant("2026-06-21", "18:00").getTime();
  const to = parisInstant("2026-06-22", "06:00").getTime();
  const out: Date[] = [];
  for (let minute = from; minute <= to; minute += MINUTE) out.push(new Date(minute), new Date(minute + MINUTE - 1));
  return out;
}

/** Remembers the fresh output of each key: a key seen again with another output is a missing dependency. */
class KeyRecord {
  private readonly seen = new Map<unknown, Map<string, string>>();
  problems: string[] = [];
  note(identity: unknown, key: string, output: string, where: string): void {
    let outputs = this.seen.get(identity);
    if (!outputs) this.seen.set(identity, (outputs = new Map()));
    const before = outputs.get(key);
    if (before !== undefined && before !== output && this.problems.length < 5) this.problems.push(`${where}: same key, another output (${key.slice(0, 80)})`);
    outputs.set(key, output);
  }
}

/** The pieces of one filter state drawn afresh and through the fast path, checked and recorded. */
function checkState(context: RenderContext, listing: HomeListing, record: KeyRecord, where: string): void {
  const pieces = keptPieces(context);
  for (const event of [...listing.spotlight, ...listing.shown]) {
    for (const showSaved of [false, true]) {
      const props = { event, now: context.now, showSaved };
      const fresh = PLAIN_PIECES.card(props) as string;
      expect(pieces.card(props)).toBe(fresh);
      record.note(event, cardKey(context, props), fresh, `${where} card ${event.eventKey}`);
    }
  }
  const chips = JSON.stringify(PLAIN_PIECES.searchlessChips(listing));
  expect(JSON.stringify(pieces.searchlessChips(listing))).toBe(chips);
  record.note("chips", chipsKey(context, listing), chips, `${where} chips`);
}

/** A search's results fragment drawn afresh and joined from its kept template, checked and recorded. */
function checkFragment(context: RenderContext, listing: HomeListing, record: KeyRecord, where: string): void {
  const render = (shown: HomeListing) => markup(HomeResults({ listing: shown, now: context.now, feedUrl: context.feedUrl, oob: true }));
  const fresh = render(listing);
  const joined = new TextDecoder().decode(searchResultsBody(context, listing, render).bytes);
  expect(joined).toBe(fresh);
  record.note(listing.filters.q, templateKey(context, listing), fresh, `${where} fragment`);
}

describe("the render context's key", () => {
  test("every card, chip and results fragment of festival night is the fresh one, and changes only with its key", () => {
    const events = nightList();
    const record = new KeyRecord();
    const parsed = [...STATES, ...SEARCHES].map((state) => ({ state, ...homeFiltersOf(new URLSearchParams(state)) }));
    let stretches = 0;
    let previous = Number.NaN;
    for (const now of nightInstants()) {
      for (const language of LANGUAGES) {
        inSite(SITE, language, "/", () => {
          const context = renderContextOf(events, now, FEED);
          if (language === "fr" && context.stretch.from !== previous) {
            stretches++;
            previous = context.stretch.from;
          }
          for (const { state, filters, moment } of parsed) {
            const listing = homeListing(events, filters, now, 1, moment);
            const where = `${now.toISOString()} ${language} ?${state}`;
            if (filters.q === "") checkState(context, listing, record, where);
            else checkFragment(context, listing, record, where);
          }
        });
      }
      expect(record.problems).toEqual([]);
    }
    // One stretch per minute of the night, and more where a change instant cuts a minute.
    expect(stretches).toBeGreaterThan(12 * 60);
  }, 120_000);
});
