// Filters and search (docs/filters-and-search.md): parameter parsing and clamping, canonical
// parameters, every match rule, chips, facets and the saved line.

import { describe, expect, test } from "bun:test";
import { liveEvent } from "../../helpers/events.ts";
import { activeFilterChips, ageRangeLabel, dateRangeLabel, priceRangeLabel, savedLabel, trackedFilterValue } from "../../../src/lib/events/filter-labels.ts";
import { canonicalFilterQuery, emptyFilters, filtersToSearchParams, hasSearch, isFilterActive, MAX_SEARCH_LENGTH, parseFilters, type EventFilters } from "../../../src/lib/events/filter-query.ts";
import { searchEntry } from "../../../src/lib/events/search.ts";
import { createEventMatcher, filterEvents, filterFacets, matchesFilters, quickDates, topSavedKeys } from "../../../src/lib/events/filter-match.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";

let counter = 0;

/** A complete LiveEvent with neutral values; `extra` overrides any field. */
function makeEvent(extra: Partial<LiveEvent> = {}): LiveEvent {
  counter++;
  const key = `evt_${String(counter).padStart(12, "0")}`;
  return liveEvent({
    eventKey: key,
    slug: "event",
    eventName: `Event ${counter}`,
    time: "18:00",
    endTime: undefined,
    ...extra,
  });
}

function filtersOf(query: string): EventFilters {
  return parseFilters(new URLSearchParams(query));
}

describe("parseFilters", () => {
  test("nothing given gives the empty state", () => {
    expect(parseFilters(new URLSearchParams())).toEqual(emptyFilters());
    expect(parseFilters({})).toEqual(emptyFilters());
  });

  const cases: [string, string, Partial<EventFilters>][] = [
    ["dates", "df=2026-06-20&dt=2026-06-21", { dateFrom: "2026-06-20", dateTo: "2026-06-21" }],
    ["from only", "df=2026-06-20", { dateFrom: "2026-06-20" }],
    ["to only", "dt=2026-06-21", { dateTo: "2026-06-21" }],
    ["df > dt is swapped", "df=2026-06-22&dt=2026-06-20", { dateFrom: "2026-06-20", dateTo: "2026-06-22" }],
    ["invalid dates dropped", "df=2026-02-30&dt=21/06/2026", {}],
    ["day/night any case, deduped, ordered", "dn=NIGHT,day,night", { dayNight: ["day", "night"] }],
    ["day/night junk ignored", "dn=evening,,day", { dayNight: ["day"] }],
    ["arrondissements sorted, unknown last", "arr=unknown,20,3,03", { arrondissements: [3, 20, "unknown"] }],
    ["arrondissement garbage ignored", "arr=0,21,x,-1,1.5,100,", { arrondissements: [] }],
    ["genres case-insensitive, list order", "g=House,hip%20hop,r%26b", { genres: ["hip hop", "r&b", "house"] }],
    ["genre with accents or without", "g=coupe-decale", { genres: ["coupé-décalé"] }],
    ["genre double-encoded", "g=hip%2520hop,r%2526b", { genres: ["hip hop", "r&b"] }],
    ["genre script ignored", "g=%3Cscript%3Ealert(1)%3C/script%3E", { genres: [] }],
    ["nationalities", "nat=fr,UK,nl,ca", { nationalities: ["UK", "FR", "CA", "NL"] }],
    ["GB reads as UK; unknown codes ignored", "nat=GB,US,xx", { nationalities: ["UK"] }],
    ["venue types", "vt=outdoor,INDOOR,roof", { venueTypes: ["indoor", "outdoor"] }],
    ["setting indoor", "in=indoor", { venueSetting: "indoor" }],
    ["setting outdoor", "in=Outdoor", { venueSetting: "outdoor" }],
    ["setting all means absent", "in=all", {}],
    ["pick=1", "pick=1", { curatedOnly: true }],
    ["pick=true", "pick=true", { curatedOnly: true }],
    ["pick=YES", "pick=YES", { curatedOnly: true }],
    ["pick=0", "pick=0", {}],
    ["pick=no", "pick=no", {}],
    ["price range", "pr=10:40", { priceRange: { min: 10, max: 40 } }],
    ["price free only", "pr=0:0", { priceRange: { min: 0, max: 0 } }],
    ["price full span is inactive", "pr=0:150", {}],
    ["price negative clamps to 0", "pr=-20:40", { priceRange: { min: 0, max: 40 } }],
    ["price above the slider dropped", "pr=10:999", {}],
    ["price min > max dropped", "pr=50:10", {}],
    ["price not numeric", "pr=abc", {}],
    ["price decimal", "pr=1.5:20", {}],
    ["price one end", "pr=20", {}],
    ["price huge", "pr=99999999999999999999:1", {}],
    ["age range", "ag=18:21", { ageRange: { min: 18, max: 21 } }],
    ["age open top", "ag=21:25", { ageRange: { min: 21, max: 25 } }],
    ["age full span inactive", "ag=18:25", {}],
    ["age out of bounds", "ag=1:999", {}],
    ["age below slider", "ag=16:21", {}],
    ["search trimmed and collapsed", "q=%20%20Afro%20%20%20House%20", { q: "Afro House" }],
  ];
  for (const [name, query, expected] of cases) {
    test(name, () => {
      expect(filtersOf(query)).toEqual({ ...emptyFilters(), ...expected });
    });
  }

  test("a record (already decoded) is read like URL parameters", () => {
    expect(parseFilters({ g: "r&b,Hip Hop", arr: "11", pr: "0:20", q: "x", unrelated: "1", dt: undefined })).toEqual({
      ...emptyFilters(),
      genres: ["hip hop", "r&b"],
      arrondissements: [11],
      priceRange: { min: 0, max: 20 },
      q: "x",
    });
    expect(parseFilters({ g: "hip+hop" }).genres).toEqual(["hip hop"]);
  });

  test("repeated list parameters are merged; scalars take the first", () => {
    expect(filtersOf("g=house&g=disco&in=outdoor&in=indoor").genres).toEqual(["house", "disco"]);
    expect(filtersOf("in=outdoor&in=indoor").venueSetting).toBe("outdoor");
  });

  test("q is cut to 200 characters without splitting an emoji", () => {
    const long = "a".repeat(500);
    expect(filtersOf(`q=${long}`).q).toHaveLength(MAX_SEARCH_LENGTH);
    const emoji = `${"a".repeat(199)}😀tail`;
    const q = parseFilters({ q: emoji }).q;
    expect(q).toBe("a".repeat(199));
  });

  test("never throws on hostile input", () => {
    const hostile: unknown[] = [
      null,
      undefined,
      42,
      "df=x",
      { df: 5, dn: ["day", 3, null], arr: { x: 1 }, pick: true, q: ["first", "second"] },
      { q: "%E0%A4%A", g: "%E0%A4%A,%" },
      Object.create(null),
      { ["__proto__"]: "x", constructor: "y" },
      new URLSearchParams(`g=${"house,".repeat(10_000)}&arr=${"1,".repeat(10_000)}&q=${"é".repeat(100_000)}`),
    ];
    for (const input of hostile) {
      expect(() => parseFilters(input as never)).not.toThrow();
    }
    expect(parseFilters({ dn: ["day", 3, null] } as never).dayNight).toEqual(["day"]);
    expect(parseFilters({ pick: true } as never).curatedOnly).toBe(true);
  });
});

describe("filtersToSearchParams", () => {
  test("canonical order and values, inactive groups omitted", () => {
    const filters = filtersOf("q=Afro&ag=18:25&pr=0:20&pick=yes&in=indoor&vt=outdoor,indoor&nat=fr,uk&g=r%26b,house,afro&arr=unknown,2&dn=night,day&dt=2026-06-21&df=2026-06-20");
    expect(filtersToSearchParams(filters).toString()).toBe(
      "df=2026-06-20&dt=2026-06-21&dn=day%2Cnight&arr=2%2Cunknown&g=r%26b%2Chouse%2Cafro&nat=UK%2CFR&vt=indoor%2Coutdoor&in=indoor&pick=1&pr=0%3A20&q=Afro",
    );
  });

  test("two spellings of the same state share one key", () => {
    const a = canonicalFilterQuery(filtersOf("g=HOUSE,disco&arr=11,3&pr=0:150"));
    const b = canonicalFilterQuery(filtersOf("arr=03,11,11&g=disco&g=house"));
    expect(a).toBe(b);
  });

  test("empty state gives an empty string", () => {
    expect(canonicalFilterQuery(emptyFilters())).toBe("");
    expect(canonicalFilterQuery(filtersOf("pr=0:150&ag=18:25&in=all&pick=0&q=%20"))).toBe("");
  });

  test("round trip through the canonical parameters is stable", () => {
    const filters = filtersOf("df=2026-06-22&dt=2026-06-20&g=coupe-decale,r%26b&nat=GB&ag=20:25");
    const again = parseFilters(filtersToSearchParams(filters));
    expect(again).toEqual(filters);
    expect(filtersToSearchParams(again).toString()).toBe(filtersToSearchParams(filters).toString());
  });

  test("an unsorted or invalid state built by hand is normalised", () => {
    const params = filtersToSearchParams({
      ...emptyFilters(),
      dateFrom: "2026-06-22",
      dateTo: "2026-06-20",
      genres: ["trap", "amapiano", "nope"],
      arrondissements: ["unknown", 20, 0, 5],
      priceRange: { min: 0, max: 150 },
      ageRange: { min: 20, max: 30 },
    });
    expect(params.toString()).toBe("df=2026-06-20&dt=2026-06-22&arr=5%2C20%2Cunknown&g=amapiano%2Ctrap");
  });
});

describe("isFilterActive and hasSearch", () => {
  const cases: [string, boolean, boolean][] = [
    ["", false, false],
    ["q=house", false, true],
    ["q=%20", false, false],
    ["df=2026-06-20", true, false],
    ["dt=2026-06-20", true, false],
    ["dn=day", true, false],
    ["arr=unknown", true, false],
    ["g=house", true, false],
    ["nat=FR", true, false],
    ["vt=indoor", true, false],
    ["in=outdoor", true, false],
    ["pick=1", true, false],
    ["pr=0:0", true, false],
    ["pr=0:150", false, false],
    ["ag=19:25", true, false],
    ["ag=18:25", false, false],
  ];
  for (const [query, active, search] of cases) {
    test(`"${query}"`, () => {
      expect(isFilterActive(filtersOf(query))).toBe(active);
      expect(hasSearch(filtersOf(query))).toBe(search);
    });
  }
});

describe("matchesFilters: every filter group", () => {
  // [row, query, event fields, expected]
  const cases: [string, string, Partial<LiveEvent>, boolean][] = [
    ["no filters match anything", "", { date: "", day: "tbc", time: undefined }, true],

    ["date inside range", "df=2026-06-20&dt=2026-06-21", { date: "2026-06-21" }, true],
    ["date on the lower edge", "df=2026-06-20&dt=2026-06-21", { date: "2026-06-20" }, true],
    ["date before range", "df=2026-06-20&dt=2026-06-21", { date: "2026-06-19" }, false],
    ["date after range", "df=2026-06-20&dt=2026-06-21", { date: "2026-06-22" }, false],
    ["from only: later date", "df=2026-06-20", { date: "2026-07-01" }, true],
    ["from only: earlier date", "df=2026-06-20", { date: "2026-06-01" }, false],
    ["to only: earlier date", "dt=2026-06-20", { date: "2026-06-01" }, true],
    ["to only: later date", "dt=2026-06-20", { date: "2026-06-21" }, false],
    ["undated excluded while from is set", "df=2026-06-20", { date: "", day: "tbc" }, false],
    ["undated excluded while to is set", "dt=2026-06-20", { date: "", day: "tbc" }, false],
    ["swapped range still matches", "df=2026-06-22&dt=2026-06-20", { date: "2026-06-21" }, true],

    ["day: 06:00–08:00", "dn=day", { time: "06:00", endTime: "08:00" }, true],
    ["day: 14:00–22:00", "dn=day", { time: "14:00", endTime: "22:00" }, true],
    ["day: 22:00 is night", "dn=day", { time: "22:00", endTime: "23:00" }, false],
    ["day: 05:59 is night", "dn=day", { time: "05:59", endTime: "07:00" }, false],
    ["night: 22:00", "dn=night", { time: "22:00" }, true],
    ["night: 00:30", "dn=night", { time: "00:30" }, true],
    ["night: 05:00", "dn=night", { time: "05:00" }, true],
    ["night: 06:00–09:00 is day", "dn=night", { time: "06:00", endTime: "09:00" }, false],
    ["night: 18:00–00:00 runs past 22:00", "dn=night", { time: "18:00", endTime: "00:00" }, true],
    ["night: 20:00–02:00 runs past 22:00", "dn=night", { time: "20:00", endTime: "02:00" }, true],
    ["day: 20:00–02:00 is not day", "dn=day", { time: "20:00", endTime: "02:00" }, false],
    ["no valid time matches day neither", "dn=day", { time: "TBC" }, false],
    ["no valid time matches night neither", "dn=night", { time: undefined }, false],
    ["day and night: any valid time", "dn=day,night", { time: "23:00" }, true],
    ["day and night: still not without a time", "dn=day,night", { time: "late" }, false],

    ["arrondissement in list", "arr=3,11", { arrondissement: 11 }, true],
    ["arrondissement not in list", "arr=3,12", { arrondissement: 11 }, false],
    ["unknown arrondissement selected", "arr=unknown", { arrondissement: "unknown" }, true],
    ["unknown not selected", "arr=1", { arrondissement: "unknown" }, false],

    ["genre: any selected", "g=house,disco", { genres: ["disco", "funk"] }, true],
    ["genre: none selected", "g=house", { genres: ["disco"] }, false],
    ["genre: event without genres", "g=house", { genres: [] }, false],
    ["genre: r&b key", "g=r%26b", { genres: ["r&b"] }, true],

    ["nationality: all selected present", "nat=UK,FR", { nationality: ["FR", "UK", "NL"] }, true],
    ["nationality: one missing", "nat=UK,FR", { nationality: ["UK"] }, false],
    ["nationality: single", "nat=NL", { nationality: ["NL"] }, true],
    ["nationality: event without nationality", "nat=UK", { nationality: [] }, false],

    ["venue type any: indoor", "vt=indoor,outdoor", { venueTypes: ["indoor"] }, true],
    ["venue type: outdoor only event vs indoor", "vt=indoor", { venueTypes: ["outdoor"] }, false],
    ["venue type: both types", "vt=outdoor", { venueTypes: ["indoor", "outdoor"] }, true],
    ["venue type: unknown setting never matches", "vt=indoor,outdoor", { venueTypes: [] }, false],

    ["setting indoor", "in=indoor", { venueTypes: ["indoor"] }, true],
    ["setting indoor vs mixed", "in=indoor", { venueTypes: ["indoor", "outdoor"] }, true],
    ["setting outdoor vs indoor", "in=outdoor", { venueTypes: ["indoor"] }, false],
    ["setting vs unknown", "in=outdoor", { venueTypes: [] }, false],
    ["setting all", "in=all", { venueTypes: [] }, true],

    ["pick: curated", "pick=1", { curated: true }, true],
    ["pick: not curated", "pick=1", { curated: false }, false],
    ["pick off: anything", "pick=0", { curated: false }, true],

    ["price: inside", "pr=10:40", { priceValue: 25 }, true],
    ["price: at min", "pr=10:40", { priceValue: 10 }, true],
    ["price: at max", "pr=10:40", { priceValue: 40 }, true],
    ["price: below", "pr=10:40", { priceValue: 9.99 }, false],
    ["price: above", "pr=10:40", { priceValue: 40.5 }, false],
    ["price: unknown never matches", "pr=0:40", { priceValue: null }, false],
    ["price: free only matches free", "pr=0:0", { priceValue: 0 }, true],
    ["price: free only rejects paid", "pr=0:0", { priceValue: 5 }, false],
    ["price: max 150 has no upper bound", "pr=20:150", { priceValue: 400 }, true],
    ["price: max 150 still needs the min", "pr=20:150", { priceValue: 10 }, false],
    ["price: max 149 is a bound", "pr=20:149", { priceValue: 400 }, false],
    ["price: inactive full span matches unknown", "pr=0:150", { priceValue: null }, true],

    ["age: unknown never matches", "ag=18:21", { ageValue: null }, false],
    ["age: all ages with min 18", "ag=18:21", { ageValue: 0 }, true],
    ["age: all ages with min 19", "ag=19:25", { ageValue: 0 }, false],
    ["age: inside", "ag=18:21", { ageValue: 21 }, true],
    ["age: above max", "ag=18:21", { ageValue: 23 }, false],
    ["age: below min", "ag=21:25", { ageValue: 18 }, false],
    ["age: 16+ below the slider", "ag=18:21", { ageValue: 16 }, false],
    ["age: max 25 has no upper bound", "ag=21:25", { ageValue: 30 }, true],
    ["age: max 24 is a bound", "ag=21:24", { ageValue: 30 }, false],
    ["age: inactive full span matches unknown", "ag=18:25", { ageValue: null }, true],
  ];
  for (const [name, query, fields, expected] of cases) {
    test(name, () => {
      expect(matchesFilters(makeEvent(fields), filtersOf(query))).toBe(expected);
    });
  }

  test("groups combine with AND", () => {
    const filters = filtersOf("arr=11&g=house&pick=1");
    expect(matchesFilters(makeEvent({ arrondissement: 11, genres: ["house"], curated: true }), filters)).toBe(true);
    expect(matchesFilters(makeEvent({ arrondissement: 11, genres: ["house"], curated: false }), filters)).toBe(false);
    expect(matchesFilters(makeEvent({ arrondissement: 12, genres: ["house"], curated: true }), filters)).toBe(false);
  });
});

describe("search", () => {
  const event = makeEvent({
    eventName: "Fête Électro at Le Café",
    location: "Rue Oberkampf",
    description: "Bring   your\nfriends",
    date: "2026-06-20",
    day: "saturday",
    arrondissement: 1,
    genres: ["hip hop", "r&b", "coupé-décalé"],
    type: "After Party",
    category: "wellness",
    tags: ["Rooftop Vibes"],
    nationality: ["UK", "NL"],
  });
  const cases: [string, boolean][] = [
    ["fete electro", true],
    ["FÊTE", true],
    ["le cafe", true],
    ["oberkampf", true],
    ["your friends", true],
    ["2026-06-20", true],
    ["06-20", true],
    ["saturday", true],
    ["1er", true],
    ["hip hop", true],
    ["R&B", true],
    ["coupe-decale", true],
    ["Coupé-Décalé", true],
    ["after party", true],
    ["wellness", true],
    ["rooftop vibes", true],
    ["uk", true],
    ["nl", true],
    ["   le    cafe  ", true],
    ["techno", false],
    ["sunday", false],
    ["fr", true], // inside "friends"
    ["2e", false],
    // Words are looked for in every field, but one written word never runs over two fields.
    ["cafe rue", true],
    ["caferue", false],
  ];
  for (const [q, expected] of cases) {
    test(`"${q}" → ${expected}`, () => {
      expect(matchesFilters(event, parseFilters({ q }))).toBe(expected);
    });
  }

  test("the arrondissement number and genre labels are searchable", () => {
    const e = makeEvent({ arrondissement: 18, genres: ["uk garage"], eventName: "X", location: undefined });
    expect(matchesFilters(e, parseFilters({ q: "18e" }))).toBe(true);
    expect(matchesFilters(e, parseFilters({ q: "18" }))).toBe(true);
    expect(matchesFilters(e, parseFilters({ q: "UK Garage" }))).toBe(true);
    expect(matchesFilters(makeEvent({ arrondissement: "unknown" }), parseFilters({ q: "tbc" }))).toBe(true);
  });

  test("the search text is built once per event object", () => {
    const e = makeEvent({ eventName: "Cached" });
    const first = searchEntry(e);
    expect(searchEntry(e)).toBe(first);
    expect(first.compact).toContain("cached\n");
  });

  test("search and filters combine", () => {
    const filters = parseFilters({ q: "house", arr: "11" });
    expect(matchesFilters(makeEvent({ genres: ["house"], arrondissement: 11 }), filters)).toBe(true);
    expect(matchesFilters(makeEvent({ genres: ["house"], arrondissement: 12 }), filters)).toBe(false);
  });
});

describe("filterEvents", () => {
  test("keeps input order", () => {
    const events = [
      makeEvent({ eventName: "c", genres: ["house"] }),
      makeEvent({ eventName: "a", genres: ["disco"] }),
      makeEvent({ eventName: "b", genres: ["house"] }),
    ];
    expect(filterEvents(events, filtersOf("g=house")).map((e) => e.eventName)).toEqual(["c", "b"]);
    expect(filterEvents(events, emptyFilters())).toEqual(events);
    expect(filterEvents(events, emptyFilters())).not.toBe(events);
  });

  test("2,000 events filter with a search and a genre", () => {
    const events = Array.from({ length: 2000 }, (_, i) =>
      makeEvent({ eventName: `Party ${i}`, description: "Lorem ipsum ".repeat(40), genres: i % 2 ? ["house"] : ["disco"] }),
    );
    const filters = parseFilters({ q: "party 1999", g: "house" });
    expect(filterEvents(events, filters).map((e) => e.eventName)).toEqual(["Party 1999"]);
  });

  test("createEventMatcher agrees with matchesFilters", () => {
    const filters = filtersOf("dn=night&pr=0:20");
    const matcher = createEventMatcher(filters);
    for (const fields of [{ time: "23:00", priceValue: 10 }, { time: "12:00", priceValue: 10 }, { time: "23:00", priceValue: 30 }]) {
      const e = makeEvent(fields);
      expect(matcher(e) !== null).toBe(matchesFilters(e, filters));
    }
  });
});

describe("chips", () => {
  const labelCases: [string, string][] = [
    ["pr=0:0", "Free only"],
    ["pr=0:20", "Free - €20"],
    ["pr=30:150", "€30+"],
    ["pr=10:40", "€10 - €40"],
    ["ag=18:21", "Age 18 - 21"],
    ["ag=21:25", "Age 21+"],
    ["dn=day", "Day (until 22:00)"],
    ["dn=night", "Night (after 22:00)"],
    ["arr=1", "1er"],
    ["arr=11", "11e"],
    ["arr=unknown", "TBC"],
    ["g=r%26b", "R&B"],
    ["g=uk garage", "UK Garage"],
    ["nat=UK", "🇬🇧 GB"],
    ["nat=FR", "🇫🇷 FR"],
    ["vt=indoor", "Indoor"],
    ["in=outdoor", "Setting: Outdoor"],
    ["pick=1", "Curated picks"],
    ["df=2026-06-20&dt=2026-06-21", "Sat 20 June - Sun 21 June"],
    ["df=2026-06-21&dt=2026-06-21", "Sun 21 June"],
    ["df=2026-06-20", "From Sat 20 June"],
    ["dt=2026-06-21", "Until Sun 21 June"],
  ];
  for (const [query, label] of labelCases) {
    test(`${query} → ${label}`, () => {
      const chips = activeFilterChips(filtersOf(query));
      expect(chips.map((c) => c.label)).toEqual([label]);
      expect(chips[0].removeQuery).toBe("");
    });
  }

  test("range label helpers", () => {
    expect(priceRangeLabel({ min: 0, max: 0 })).toBe("Free only");
    expect(priceRangeLabel({ min: 5, max: 5 })).toBe("€5 - €5");
    expect(ageRangeLabel({ min: 25, max: 25 })).toBe("Age 25+");
    expect(dateRangeLabel(null, null)).toBe("Any date");
  });

  test("each chip carries its group, tracked value and the canonical parameters without it", () => {
    const filters = filtersOf("q=disco&g=house,r%26b&arr=11,unknown&dt=2026-06-21&pick=1&pr=0:20&nat=UK,FR&in=indoor&ag=19:25&dn=night&vt=outdoor");
    const chips = activeFilterChips(filters);
    expect(chips.map((c) => [c.group, c.value, c.removeQuery])).toEqual([
      ["date_range", "any:2026-06-21", "dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["day_night", "night", "dt=2026-06-21&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["arrondissement", "11", "dt=2026-06-21&dn=night&arr=unknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["arrondissement", "unknown", "dt=2026-06-21&dn=night&arr=11&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["genre", "r&b", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=house&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["genre", "house", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["nationality", "UK", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=FR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["nationality", "FR", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK&vt=outdoor&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["venue_type", "outdoor", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&in=indoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["venue_setting", "indoor", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&pick=1&pr=0%3A20&ag=19%3A25&q=disco"],
      ["oooc_pick", "yes", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pr=0%3A20&ag=19%3A25&q=disco"],
      ["price_range", "0:20", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&ag=19%3A25&q=disco"],
      ["age_range", "19:25", "dt=2026-06-21&dn=night&arr=11%2Cunknown&g=r%26b%2Chouse&nat=UK%2CFR&vt=outdoor&in=indoor&pick=1&pr=0%3A20&q=disco"],
    ]);
    for (const chip of chips) expect(chip.removeParams.toString()).toBe(chip.removeQuery);
  });

  test("search alone gives no chip", () => {
    expect(activeFilterChips(filtersOf("q=house"))).toEqual([]);
  });
});

describe("trackedFilterValue", () => {
  test("each group", () => {
    expect(trackedFilterValue("date_range", { from: "2026-06-20", to: null })).toBe("2026-06-20:any");
    expect(trackedFilterValue("date_range", { from: null, to: "2026-06-21" })).toBe("any:2026-06-21");
    expect(trackedFilterValue("date_range", { from: null, to: null })).toBe("any:any");
    expect(trackedFilterValue("day_night", "day")).toBe("day");
    expect(trackedFilterValue("arrondissement", 11)).toBe("11");
    expect(trackedFilterValue("arrondissement", "unknown")).toBe("unknown");
    expect(trackedFilterValue("genre", "hip hop")).toBe("hip hop");
    expect(trackedFilterValue("nationality", "NL")).toBe("NL");
    expect(trackedFilterValue("venue_type", "outdoor")).toBe("outdoor");
    expect(trackedFilterValue("venue_setting", "indoor")).toBe("indoor");
    expect(trackedFilterValue("venue_setting", null)).toBe("all");
    expect(trackedFilterValue("oooc_pick", true)).toBe("yes");
    expect(trackedFilterValue("oooc_pick", false)).toBe("no");
    expect(trackedFilterValue("price_range", { min: 0, max: 40 })).toBe("0:40");
    expect(trackedFilterValue("age_range", { min: 21, max: 25 })).toBe("21:25");
  });
});

describe("quickDates", () => {
  test("the 4 busiest dates, ties to the earlier date, in date order", () => {
    const on = (date: string, n: number) => Array.from({ length: n }, () => makeEvent({ date }));
    const events = [
      ...on("2026-06-25", 1),
      ...on("2026-06-21", 5),
      ...on("2026-06-19", 2),
      ...on("2026-06-22", 2),
      ...on("2026-06-20", 3),
      ...on("2026-06-23", 2),
      ...on("", 9),
    ];
    expect(quickDates(events)).toEqual(["2026-06-19", "2026-06-20", "2026-06-21", "2026-06-22"]);
  });

  test("fewer dates than 4", () => {
    expect(quickDates([makeEvent({ date: "2026-06-21" }), makeEvent({ date: "2026-06-20" })])).toEqual(["2026-06-20", "2026-06-21"]);
    expect(quickDates([])).toEqual([]);
  });
});

describe("filterFacets", () => {
  test("values present, in toggle order", () => {
    const facets = filterFacets([
      makeEvent({ arrondissement: "unknown", genres: ["house", "amapiano"], nationality: ["NL"] }),
      makeEvent({ arrondissement: 20, genres: ["other"], nationality: ["FR", "UK"] }),
      makeEvent({ arrondissement: 3, genres: ["house"], nationality: [] }),
    ]);
    expect(facets).toEqual({
      arrondissements: [3, 20, "unknown"],
      genres: ["amapiano", "house", "other"],
      nationalities: ["UK", "FR", "NL"],
    });
  });
});

describe("saved line", () => {
  test("topSavedKeys: at least 3 saves and in the top 8, ties by name then key", () => {
    const events = [
      makeEvent({ eventKey: "evt_k10", eventName: "Ten", savedCount: 10 }),
      makeEvent({ eventKey: "evt_k02", eventName: "Two", savedCount: 2 }),
      ...Array.from({ length: 8 }, (_, i) => makeEvent({ eventKey: `evt_t${i}`, eventName: `Tie ${8 - i}`, savedCount: 5 })),
      makeEvent({ eventKey: "evt_dup_b", eventName: "Tie 1", savedCount: 5 }),
      makeEvent({ eventKey: "evt_dup_a", eventName: "Tie 1", savedCount: 5 }),
    ];
    const keys = topSavedKeys(events);
    expect(keys.size).toBe(8);
    expect(keys.has("evt_k10")).toBe(true);
    expect(keys.has("evt_k02")).toBe(false);
    // Top 8 = Ten, then "Tie 1" (dup_a, dup_b, evt_t7), "Tie 2" … "Tie 5".
    expect([...keys].sort()).toEqual(["evt_dup_a", "evt_dup_b", "evt_k10", "evt_t3", "evt_t4", "evt_t5", "evt_t6", "evt_t7"].sort());
  });

  test("nobody under 3 saves shows the line", () => {
    expect(topSavedKeys([makeEvent({ savedCount: 2 }), makeEvent({ savedCount: 0 })]).size).toBe(0);
  });

  test("the line counts My-night saves, never calendar additions", () => {
    const keys = topSavedKeys([makeEvent({ eventKey: "evt_cal", savedCount: 0, calendarSyncCount: 50 }), makeEvent({ eventKey: "evt_saved", savedCount: 3, calendarSyncCount: 0 })]);
    expect([...keys]).toEqual(["evt_saved"]);
  });

  test("savedLabel", () => {
    expect(savedLabel(1)).toBe("1 person saved this");
    expect(savedLabel(3)).toBe("3 people saved this");
    expect(savedLabel(0)).toBe("0 people saved this");
  });
});
