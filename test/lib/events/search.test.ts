// The search's own rules (src/lib/events/search.ts, searchWords in src/lib/sheet/text.ts): one
// folding for query and fields, the typo allowance by length with swaps counting one, and the
// "Did you mean" respelling offered only when it finds more. The HTTP behaviour is in
// test/api/search.test.ts.

import { describe, expect, test } from "bun:test";
import { liveEvent } from "../../helpers/events.ts";
import { editDistance, prepareSearch, searchIndexOf, suggestQuery, typoAllowance, withinEdits } from "../../../src/lib/events/search.ts";
import { filterEvents, searchSuggestion } from "../../../src/lib/events/filter-match.ts";
import { parseFilters } from "../../../src/lib/events/filter-query.ts";
import { compactSearchText, searchWords } from "../../../src/lib/sheet/text.ts";
import { inLanguage } from "../../../src/lib/i18n/index.ts";

describe("searchWords: one folding for the query and the fields", () => {
  test.each([
    ["Canal Saint-Martin", "canal saint martin"],
    ["L'Olympia", "l olympia"],
    ["Fête  de la   Musique", "fete de la musique"],
    ["CHŒUR", "choeur"],
    ["R&B / Soul", "r&b soul"],
    ["Hip-Hop", "hip hop"],
  ])("%s → %s", (text, words) => {
    expect(searchWords(text).join(" ")).toBe(words);
  });

  test("compact forms meet whatever the spacing", () => {
    for (const text of ["hip hop", "Hip-Hop", "hiphop", "HIP  HOP"]) expect(compactSearchText(text)).toBe("hiphop");
  });
});

describe("typo allowance", () => {
  test("none below 5 letters, 1 for 5–7, 2 from 8", () => {
    expect([3, 4, 5, 7, 8, 12].map(typoAllowance)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  test("a swap of two neighbours is one edit (optimal string alignment), Levenshtein would say two", () => {
    expect(editDistance("amapaino", "amapiano")).toBe(1);
    expect(editDistance("baitgnolles", "batignolles")).toBe(1);
    expect(withinEdits("kmopa", "kompa", 1)).toBe(true);
    expect(withinEdits("kmpoa", "kompa", 1)).toBe(false);
    expect(withinEdits("kmpoa", "kompa", 2)).toBe(true);
  });

  test("phrases of the genre table and the chips are read as one term", () => {
    expect(prepareSearch("ce soir plein air")!.terms.map((t) => t.keywords)).toEqual([["tonight"], ["outdoor"]]);
    expect(prepareSearch("rock n roll")!.terms.map((t) => t.genres)).toEqual([["rock"]]);
    expect(prepareSearch("tecnho")!.terms[0]!.typoGenres).toEqual(["house"]);
    expect(prepareSearch("rap")!.terms[0]).toMatchObject({ genres: ["rap"], allowance: 0 });
    expect(prepareSearch("!!!")).toBeNull();
  });
});

describe("ranking and Did you mean over a list", () => {
  const events = [
    liveEvent({ eventKey: "evt_typo0000001", eventName: "Soirés du Canal" }),
    liveEvent({ eventKey: "evt_fold0000001", eventName: "Soiree Salsa" }),
    liveEvent({ eventKey: "evt_exact000001", eventName: "La Grande Soirée" }),
    liveEvent({ eventKey: "evt_trap0000001", eventName: "Trap Night", genres: ["trap"] }),
    liveEvent({ eventKey: "evt_kompa000001", eventName: "Kompa Ball", genres: ["kompa"] }),
    liveEvent({ eventKey: "evt_kompa000002", eventName: "Bal Kompa", genres: ["kompa"] }),
  ];

  test("exact, then folded, then typo; rap never finds trap", () => {
    expect(filterEvents(events, parseFilters({ q: "soirée" })).map((e) => e.eventName)).toEqual(["La Grande Soirée", "Soiree Salsa", "Soirés du Canal"]);
    expect(filterEvents(events, parseFilters({ q: "rap" }))).toEqual([]);
  });

  test("a respelling is offered on few results only when it finds more", () => {
    const index = searchIndexOf(events);
    expect(suggestQuery("kmpoa", index)).toBe("Kompa");
    expect(suggestQuery("kompa", index)).toBeNull();
    const now = new Date("2026-06-21T10:00:00Z");
    expect(searchSuggestion(events, parseFilters({ q: "kmpoa" }), 0, now)).toEqual({ q: "Kompa", count: 2 });
    // Three or more found: no suggestion.
    expect(searchSuggestion(events, parseFilters({ q: "kmpoa" }), 3, now)).toBeNull();
    // The respelling must find more than the search did.
    expect(searchSuggestion(events, parseFilters({ q: "kmpoa" }), 2, now)).toBeNull();
  });
});

describe("the search text follows the language of the search, not of the first one after start", () => {
  // An event with no known arrondissement carries the catalogue's "to be confirmed" label in its
  // search text ("TBC" / "à confirmer"). The memo of that text once kept the label of whichever
  // language built it first, so the same query matched or not depending on earlier requests.
  const unknown = () => [liveEvent({ eventName: "Mystery Set", arrondissement: "unknown" }), liveEvent({ eventName: "Known Set", arrondissement: 11 })];
  const names = (events: readonly { eventName: string }[]) => events.map((event) => event.eventName);

  test("French first, then English: each language finds its own label", () => {
    const events = unknown();
    expect(inLanguage("fr", () => names(filterEvents(events, parseFilters({ q: "à confirmer" }))))).toEqual(["Mystery Set"]);
    expect(inLanguage("en", () => names(filterEvents(events, parseFilters({ q: "tbc" }))))).toEqual(["Mystery Set"]);
  });

  test("English first, then French: the same answers", () => {
    const events = unknown();
    expect(inLanguage("en", () => names(filterEvents(events, parseFilters({ q: "tbc" }))))).toEqual(["Mystery Set"]);
    expect(inLanguage("fr", () => names(filterEvents(events, parseFilters({ q: "à confirmer" }))))).toEqual(["Mystery Set"]);
    expect(inLanguage("fr", () => names(filterEvents(events, parseFilters({ q: "tbc" }))))).toEqual([]);
  });
});
