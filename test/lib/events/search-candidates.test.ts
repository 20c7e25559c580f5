// The search index only skips events (src/lib/events/search.ts, searchCandidates): filterEvents,
// which runs the matcher only on the candidates the index leaves, must give the very list of a
// plain scan running the matcher on every event, in the same order (exact, then folded, then typo
// matches, each in list order), whatever the query and the filter groups.

import { describe, expect, test } from "bun:test";
import { bigSheet } from "../../../bench/fixtures.ts";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { createEventMatcher, filterEvents, searchSuggestion } from "../../../src/lib/events/filter-match.ts";
import { parseFilters, type EventFilters } from "../../../src/lib/events/filter-query.ts";
import { searchIndexOf } from "../../../src/lib/events/search.ts";
import { inLanguage, type Language } from "../../../src/lib/i18n/index.ts";
import { parseEventSheet } from "../../../src/lib/sheet/sheet.ts";
import { searchWords } from "../../../src/lib/sheet/text.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";
import { liveEvent } from "../../helpers/events.ts";

const NOW = new Date("2026-06-21T19:30:00Z");

function parsed(csv: string): LiveEvent[] {
  const result = parseEventSheet(csv, { now: NOW });
  if (!result.ok) throw new Error(result.error);
  return result.events;
}

// Text the sheets above lack: other scripts (kept unfolded by the search), accents, ligatures,
// hyphenated and run-together names, an unknown arrondissement, tags and categories.
const extra = (): LiveEvent[] => [
  liveEvent({ eventKey: "evt_extra0000001", eventName: "Москва Диско", location: "Клуб Восток", genres: ["disco"] }),
  liveEvent({ eventKey: "evt_extra0000002", eventName: "東京 Night 夜", location: "Ωmega Βar", arrondissement: "unknown" }),
  liveEvent({ eventKey: "evt_extra0000003", eventName: "Soirée Chœur & Cœur", location: "Église Saint-Eustache", arrondissement: 1, tags: ["chorale", "ä-ö"] }),
  liveEvent({ eventKey: "evt_extra0000004", eventName: "Hiphop Night", genres: ["hip hop"], priceValue: 0, price: "Free" }),
  liveEvent({ eventKey: "evt_extra0000005", eventName: "Hip-Hop Block Party", location: "Canal Saint-Martin", arrondissement: 10, category: "culture" }),
  liveEvent({ eventKey: "evt_extra0000006", eventName: "R'n'B Sessions", genres: ["r&b"], venueTypes: ["outdoor"], time: "21:00" }),
  liveEvent({ eventKey: "evt_extra0000007", eventName: "Techno Tunnel", genres: ["house"], venueTypes: ["indoor"], description: "Trap and rap all night" }),
  liveEvent({ eventKey: "evt_extra0000008", eventName: "Fête de la Musique", location: "L'Olympia", arrondissement: 9, nationality: ["FR"] }),
  // Words of one and two letters, found again when run together with the next ("djkool", "atribe").
  liveEvent({ eventKey: "evt_extra0000009", eventName: "DJ Kool", location: "La Cigale", arrondissement: 18 }),
  liveEvent({ eventKey: "evt_extra0000010", eventName: "A Tribe Night", location: "Le Trabendo", arrondissement: 19 }),
];

const LISTS: Record<string, () => LiveEvent[]> = {
  "300 events of the benchmark sheet": () => parsed(bigSheet(300)),
  "the fixture sheet and other scripts": () => [...parsed(FIXTURE_SHEET_CSV), ...extra()],
};

/** Every query tried: a word's prefixes, typos, phrases, chip words, digits, other scripts, nothing searchable. */
function queries(events: readonly LiveEvent[]): string[] {
  const written = [
    ...["e", "v", "ve", "ev", "a", "1", "5", "m", "de", "ca", "hi", "é", "œ", "ω", "東"],
    ...["event", "venue", "venue 12", "venue m12", "event 5", "event 5 at venue", "kompa 5", "venue12", "event5at", "eventat", "at venue 1"],
    // Split where the list has no space: only the whole query joined finds these.
    ...["hi phop", "eve nt 5", "ven ue12", "mos ква", "ωme ga", "djkool", "djkoo", "lacigale", "atribe", "atribenight", "letrabendo"],
    ...["hiphop", "hip hop", "hip-hop", "canal saint martin", "canalsaintmartin", "lolympia", "saint", "batig", "batgnol", "baitgnolles", "batignolles 8"],
    ...["soirée", "soiree", "fete", "fête", "chœur", "choeur", "coeur", "eglise", "ä", "ö", "a o"],
    ...["techno", "tecnho", "rnb", "r'n'b", "r and b", "soul", "afrohouse", "kompa", "kmopa", "zouk", "dancehall", "dancehal", "amapaino", "house disco", "rap", "trap"],
    ...["gratuit", "gratuit plein air", "ce soir", "cette nuit", "tonight", "free", "free jazz", "maintenant", "aujourd'hui", "today", "plein air", "indoor", "en salle", "gratuti"],
    ...["2026", "2026-06-20", "06 20", "19", "20", "11e", "m123", "12:00", "€5", "18+"],
    ...["москва", "моск", "диско", "восток", "東京", "夜", "ωmega", "βar", "omega"],
    ...["!!!", "  ", "notes for 12", "with a comma", "comma", "party", "sunday", "dimanche", "à confirmer", "tbc", "popincourt", "zzzzz", "eventtt", "venuue"],
  ];
  // Prefixes of the list's own words, and each with one letter swapped, dropped or doubled.
  const words = [...new Set(events.slice(0, 40).flatMap((event) => searchWords(`${event.eventName} ${event.location ?? ""}`)))];
  const derived = words.flatMap((word) => {
    const out = [word.slice(0, 2), word.slice(0, 4), word];
    if (word.length >= 5) out.push(word[1]! + word[0]! + word.slice(2), word.slice(0, 2) + word.slice(3), word + word.at(-1), word.slice(0, -1) + "x");
    return out;
  });
  return [...new Set([...written, ...derived])];
}

const FILTER_STATES: Record<string, Record<string, string>> = {
  none: {},
  "g=house": { g: "house" },
  "arr=10,11": { arr: "10,11" },
  "in=outdoor, price": { in: "outdoor", pr: "0:20" },
};

/** The plain scan: the matcher (filter groups and search) on every event, tiers in list order. */
function scanned(events: readonly LiveEvent[], filters: EventFilters): LiveEvent[] {
  const index = searchIndexOf(events);
  const matcher = createEventMatcher(filters, NOW, index);
  const tiers: LiveEvent[][] = [[], [], []];
  events.forEach((event, i) => {
    const tier = matcher(event, index.entries[i]);
    if (tier !== null) tiers[tier]!.push(event);
  });
  return tiers[1]!.length === 0 && tiers[2]!.length === 0 ? tiers[0]! : tiers.flat();
}

const keys = (events: readonly LiveEvent[]): string[] => events.map((event) => event.eventKey);

describe("filterEvents with the search index gives the plain scan's list and order", () => {
  for (const [listName, build] of Object.entries(LISTS)) {
    for (const language of ["fr", "en"] as Language[]) {
      test(`${listName}, ${language}`, () => {
        const events = build();
        const tried = queries(events);
        let found = 0;
        let mixed = 0;
        inLanguage(language, () => {
          for (const [stateName, params] of Object.entries(FILTER_STATES)) {
            for (const q of tried) {
              const filters = parseFilters({ ...params, q });
              const expected = keys(scanned(events, filters));
              const actual = keys(filterEvents(events, filters, NOW));
              if (actual.join() !== expected.join()) throw new Error(`${stateName}, q=${JSON.stringify(q)}: ${actual.join()} ≠ ${expected.join()}`);
              found += expected.length;
              // Results from more than one tier: the order between tiers is checked too.
              const index = searchIndexOf(events);
              const matcher = createEventMatcher(filters, NOW, index);
              if (new Set(events.map((event, i) => matcher(event, index.entries[i])).filter((tier) => tier !== null)).size > 1) mixed++;
            }
          }
        });
        // The queries find events, and some in several tiers (the comparison is not of empty lists).
        expect(found).toBeGreaterThan(tried.length);
        expect(mixed).toBeGreaterThan(5);
      });
    }
  }
});

test("Did you mean counts the events its respelling finds as the plain scan does", () => {
  const events = [...parsed(bigSheet(300)), ...parsed(FIXTURE_SHEET_CSV), ...extra()];
  const outdoor = (event: LiveEvent): boolean => event.venueTypes.includes("outdoor");
  let offered = 0;
  inLanguage("fr", () => {
    for (const params of Object.values(FILTER_STATES)) {
      for (const q of ["kmpoa", "baitgnolles", "amapaino", "belevile", "dancehal", "hiphpo", "venu 12", "sunet"]) {
        const filters = parseFilters({ ...params, q });
        for (const keep of [undefined, outdoor]) {
          const suggestion = searchSuggestion(events, filters, 0, NOW, keep);
          if (suggestion === null) continue;
          offered++;
          const found = scanned(events, parseFilters({ ...params, q: suggestion.q }));
          expect(suggestion.count).toBe(keep ? found.filter(keep).length : found.length);
        }
      }
    }
  });
  expect(offered).toBeGreaterThan(5);
});
