// A search's results fragment joined from a kept template (results-template.ts) must be the very
// fragment a fresh render gives, and so must its gzip when its template made one: for searches
// that find the same events, for searches that find others, for hostile search text, in both
// languages, under a base path, at several instants.

import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { parseEventSheet } from "../../../src/lib/sheet/sheet.ts";
import { homeFiltersOf, homeListing } from "../../../src/pages/home/listing.ts";
import { HomeResults } from "../../../src/pages/home/home.view.tsx";
import { inSite, type Language } from "../../../src/lib/i18n/index.ts";
import { markup } from "../../../src/lib/http/responses.ts";
import { SEARCH_STAND_IN, searchResultsBody } from "../../../src/pages/home/fast/results-template.ts";
import { renderContextOf } from "../../../src/pages/home/fast/render-context.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";
import { NEW_FOR_MS } from "../../../src/lib/events/event-status.ts";

function parsedEvents(): LiveEvent[] {
  const parsed = parseEventSheet(FIXTURE_SHEET_CSV, { now: new Date("2026-06-01T10:00:00Z") });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.events;
}

const FEED = "https://finder.example/calendar.ics";

/** A fresh render, the joined one, and the joined one's gzip decoded by zlib when its template made one. */
function both(events: readonly LiveEvent[], query: string, now: Date): { fresh: string; joined: string; gunzipped?: string } {
  const { filters, moment } = homeFiltersOf(new URLSearchParams(query));
  const listing = homeListing(events, filters, now, 1, moment);
  const render = (shown: typeof listing) => markup(HomeResults({ listing: shown, now, feedUrl: FEED, oob: true }));
  const body = searchResultsBody(renderContextOf(events, now, FEED), listing, render);
  // Decoded strictly: joined bytes that are not UTF-8 (a cut inside a character) fail the test.
  const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  return { fresh: render(listing), joined: decode(body.bytes), gunzipped: body.gzip && decode(gunzipSync(body.gzip)) };
}

const STATES = ["", "g=house", "g=house&when=now", "g=house&when=tonight", "pr=0:0&when=tonight", "df=2026-06-21&dt=2026-06-21&arr=11", "dn=night&when=now"];
// Same results written differently, other results, nothing found, a typo ("Did you mean"), and hostile text.
const SEARCHES = ["jazz", "Jazz", "JAZZ ", "jäzz", "house", "batignolles", "kmpoa", "zzz nothing", "nothing at all", `"><script>alert(1)</script>`, "a&b=c d+e %20 #x", "café €5 — 𝄞", SEARCH_STAND_IN];
const INSTANTS = [new Date("2026-06-21T19:30:00Z"), new Date("2026-06-21T19:31:00Z"), new Date("2026-05-01T10:00:00Z")];

describe("results templates", () => {
  test("a joined fragment is the fresh render, search after search, whichever came first", () => {
    const events = parsedEvents();
    let checked = 0;
    let spliced = 0;
    for (const language of ["fr", "en"] as Language[]) {
      for (const basePath of ["", "/fete"]) {
        inSite({ basePath, rootLanguage: "fr" }, language, "/", () => {
          for (const now of INSTANTS) {
            for (const state of STATES) {
              for (const q of [...SEARCHES, ...[...SEARCHES].reverse()]) {
                const query = `${state}${state ? "&" : ""}q=${encodeURIComponent(q)}`;
                const { fresh, joined, gunzipped } = both(events, query, now);
                expect(joined).toBe(fresh);
                if (gunzipped !== undefined) {
                  expect(gunzipped).toBe(fresh);
                  spliced++;
                }
                checked++;
              }
            }
          }
        });
      }
    }
    expect(checked).toBe(2 * 2 * INSTANTS.length * STATES.length * SEARCHES.length * 2);
    // Searches that find what an earlier one found are answered with gzip spliced from the template.
    expect(spliced).toBeGreaterThan(checked / 2);
  });

  test("the search reaches the joined fragment's links, and a template never outlives its list", () => {
    const events = parsedEvents();
    const now = INSTANTS[0]!;
    inSite({ basePath: "", rootLanguage: "fr" }, "fr", "/", () => {
      const first = both(events, "g=house&q=zzz+one", now);
      const second = both(events, "g=house&q=zzz+two", now);
      expect(second.joined).toContain("q=zzz+two");
      expect(second.joined).not.toContain("zzz+one");
      expect(second.joined).not.toContain(SEARCH_STAND_IN);
      expect(second.joined).toBe(first.joined.replaceAll("zzz+one", "zzz+two"));
      // Another list (a new read) with one event renamed: its fragment shows the new name.
      const renamed = events.map((event, i) => (i === 0 ? { ...event, eventName: "Renamed Night" } : event));
      const query = `q=${encodeURIComponent(events[0]!.eventName.split(" ")[0]!)}`;
      const before = both(events, query, now);
      const after = both(renamed, query, now);
      expect(after.joined).toBe(after.fresh);
      expect(after.joined).toContain("Renamed Night");
      expect(before.joined).not.toContain("Renamed Night");
    });
  });

  test("a change inside a minute (the end of an event's first day as new) is not hidden by a template made earlier in that minute", () => {
    const events = parsedEvents();
    const target = events[0]!;
    // First published 24 h before 19:30:30, so "new" shows at 19:30:10 and no longer at 19:30:50.
    const list = events.map((event) => (event === target ? { ...event, firstPublishedAt: new Date(Date.parse("2026-06-21T19:30:30Z") - NEW_FOR_MS).toISOString() } : event));
    const query = `q=${encodeURIComponent(target.eventName)}`;
    inSite({ basePath: "", rootLanguage: "fr" }, "fr", "/", () => {
      const before = both(list, query, new Date("2026-06-21T19:30:10Z"));
      const after = both(list, query, new Date("2026-06-21T19:30:50Z"));
      expect(before.fresh).not.toBe(after.fresh);
      expect(before.joined).toBe(before.fresh);
      expect(after.joined).toBe(after.fresh);
      // And back again (a clock read earlier in the minute).
      expect(both(list, query, new Date("2026-06-21T19:30:20Z")).joined).toBe(before.fresh);
    });
  });

  test("templates stay kept past a few hundred others (least recently used dropped by size, not all at once)", () => {
    const events = parsedEvents();
    const now = INSTANTS[0]!;
    // Finding nothing (every word holds a digit, so no "Did you mean") in 240 filter states: 240 templates.
    const states = [];
    for (let arr = 1; arr <= 20; arr++) for (const dn of ["", "&dn=day", "&dn=night"]) for (const g of ["", "&g=house", "&g=jazz", "&g=disco"]) states.push(`arr=${arr}${dn}${g}`);
    const first = both(events, "q=qq1+zz1", now);
    expect(first.gunzipped).toBeUndefined();
    for (const state of states) both(events, `${state}&q=qq2+zz2`, now);
    // The first template was kept: this search is its second use, so its answer is spliced.
    const again = both(events, "q=qq3+zz3", now);
    expect(again.joined).toBe(again.fresh);
    expect(again.gunzipped).toBe(again.fresh);
  });
});
