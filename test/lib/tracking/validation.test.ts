import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { discoveryRulesHold, parseDiscoveryBody, parseEngagementBody, parsePreferenceBody, TRACKING_BOUNDS } from "../../../src/lib/tracking/validation.ts";
import { FILTER_GROUPS } from "../../../src/lib/events/filter-query.ts";
import { GENRE_KEYS } from "../../../src/lib/sheet/genres.ts";

const base = { eventKey: "evt_fixture000001", actionType: "click" };
const text = (n: number, ch = "a") => ch.repeat(n);

describe("engagement body", () => {
  test("a minimal body is valid; the key is trimmed and lower-cased; absent and null optionals are null", () => {
    expect(parseEngagementBody({ eventKey: "  EVT_Fixture000001 ", actionType: "click" })).toEqual({ eventKey: "evt_fixture000001", actionType: "click", sessionId: null, source: null, path: null });
    expect(parseEngagementBody({ ...base, sessionId: null, source: null, path: null })).toEqual({ eventKey: "evt_fixture000001", actionType: "click", sessionId: null, source: null, path: null });
  });

  test.each([
    ["click"],
    ["outbound_click"],
    ["calendar_sync"],
  ])("actionType %s is accepted", (actionType) => {
    expect(parseEngagementBody({ ...base, actionType })?.actionType).toBe(actionType as never);
  });

  test.each([
    ["missing body", undefined],
    ["null body", null],
    ["array body", [base]],
    ["string body", "click"],
    ["unknown action", { ...base, actionType: "view" }],
    ["action in capitals", { ...base, actionType: "CLICK" }],
    ["missing action", { eventKey: base.eventKey }],
    ["missing key", { actionType: "click" }],
    ["null key", { eventKey: null, actionType: "click" }],
    ["blank key", { eventKey: "   ", actionType: "click" }],
    ["numeric key", { eventKey: 12, actionType: "click" }],
    ["array key", { eventKey: [base.eventKey], actionType: "click" }],
    ["object key", { eventKey: { k: 1 }, actionType: "click" }],
    ["key over 220", { ...base, eventKey: text(221) }],
    ["array sessionId", { ...base, sessionId: ["s"] }],
    ["numeric sessionId", { ...base, sessionId: 5 }],
    ["boolean source", { ...base, source: true }],
    ["object path", { ...base, path: {} }],
    ["sessionId over 120", { ...base, sessionId: text(121) }],
    ["source over 80", { ...base, source: text(81) }],
    ["path over 280", { ...base, path: text(281) }],
    ["NUL in path", { ...base, path: "/a\u0000b" }],
    ["lone surrogate in source", { ...base, source: "x\ud800y" }],
  ])("%s is invalid", (_name, body) => {
    expect(parseEngagementBody(body)).toBeUndefined();
  });

  test("bounds are exact, counted in characters after trimming", () => {
    expect(parseEngagementBody({ ...base, eventKey: text(220) })?.eventKey).toHaveLength(220);
    expect(parseEngagementBody({ ...base, eventKey: "k" })?.eventKey).toBe("k");
    expect(parseEngagementBody({ ...base, sessionId: text(120) })?.sessionId).toHaveLength(120);
    expect(parseEngagementBody({ ...base, source: text(80) })?.source).toHaveLength(80);
    expect(parseEngagementBody({ ...base, path: text(280) })?.path).toHaveLength(280);
    expect(parseEngagementBody({ ...base, path: `  ${text(280)}  ` })?.path).toHaveLength(280);
    // 120 emoji are 240 UTF-16 units but 120 characters.
    expect(parseEngagementBody({ ...base, sessionId: "🎶".repeat(120) })?.sessionId).toBe("🎶".repeat(120));
    expect(parseEngagementBody({ ...base, sessionId: "🎶".repeat(121) })).toBeUndefined();
  });

  test("blank optionals become null; unknown keys are ignored; markup is kept as text", () => {
    const parsed = parseEngagementBody({ ...base, sessionId: "  ", source: "", path: "<script>alert(1)</script>", extra: { nested: true }, __proto__: { x: 1 } });
    expect(parsed).toEqual({ eventKey: "evt_fixture000001", actionType: "click", sessionId: null, source: null, path: "<script>alert(1)</script>" });
  });
});

describe("discovery body and rules", () => {
  test("filter groups are trimmed and lower-cased and must be one of the ten", () => {
    for (const group of FILTER_GROUPS) expect(parseDiscoveryBody({ actionType: "filter_apply", filterGroup: ` ${group.toUpperCase()} `, filterValue: "X" })?.filterGroup).toBe(group);
    expect(parseDiscoveryBody({ actionType: "filter_apply", filterGroup: "colour", filterValue: "red" })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "filter_clear", filterGroup: "colour" })).toBeUndefined();
  });

  test("values and queries are stored lower-cased", () => {
    expect(parseDiscoveryBody({ actionType: "search", searchQuery: "  Afro HOUSE " })?.searchQuery).toBe("afro house");
    expect(parseDiscoveryBody({ actionType: "filter_apply", filterGroup: "genre", filterValue: "Hip Hop" })?.filterValue).toBe("hip hop");
  });

  test("bounds: searchQuery 2–280, filterValue 120, filterGroup 80, sessionId 120, path 280", () => {
    expect(parseDiscoveryBody({ actionType: "search", searchQuery: "ab" })?.searchQuery).toBe("ab");
    expect(parseDiscoveryBody({ actionType: "search", searchQuery: "a" })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "search", searchQuery: text(280) })?.searchQuery).toHaveLength(280);
    expect(parseDiscoveryBody({ actionType: "search", searchQuery: text(281) })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "filter_apply", filterGroup: "genre", filterValue: text(120) })?.filterValue).toHaveLength(120);
    expect(parseDiscoveryBody({ actionType: "filter_apply", filterGroup: "genre", filterValue: text(121) })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "filter_clear", filterGroup: text(81) })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "filter_clear", sessionId: text(121) })).toBeUndefined();
    expect(parseDiscoveryBody({ actionType: "filter_clear", path: text(281) })).toBeUndefined();
    expect(TRACKING_BOUNDS.searchQuery.min).toBe(2);
  });

  test.each([
    [{ actionType: "filter_apply", filterGroup: "genre", filterValue: "house" }, true],
    [{ actionType: "filter_apply", filterGroup: "genre" }, false],
    [{ actionType: "filter_apply", filterGroup: "genre", filterValue: "  " }, false],
    [{ actionType: "filter_apply", filterValue: "house" }, false],
    [{ actionType: "search", searchQuery: "jazz" }, true],
    [{ actionType: "search" }, false],
    [{ actionType: "search", searchQuery: "   " }, false],
    [{ actionType: "filter_clear" }, true],
    [{ actionType: "filter_clear", filterValue: "all" }, true],
  ])("rules for %j → %p", (body, holds) => {
    const parsed = parseDiscoveryBody(body);
    expect(parsed).toBeDefined();
    expect(discoveryRulesHold(parsed!)).toBe(holds);
  });

  test.each([[{ actionType: "scroll" }], [{ actionType: "search", searchQuery: ["jazz"] }], [{ actionType: "search", searchQuery: 42 }], [null], [[]]])("%j is invalid", (body) => {
    expect(parseDiscoveryBody(body)).toBeUndefined();
  });
});

describe("preference body", () => {
  test("every genre key is accepted, trimmed and lower-cased; incrementBy defaults to 1", () => {
    for (const genre of GENRE_KEYS) expect(parsePreferenceBody({ genre: ` ${genre.toUpperCase()} ` })).toEqual({ genre, incrementBy: 1 });
    expect(parsePreferenceBody({ genre: "house", incrementBy: null })).toEqual({ genre: "house", incrementBy: 1 });
  });

  test.each([[1], [10]])("incrementBy %p is accepted", (n) => {
    expect(parsePreferenceBody({ genre: "house", incrementBy: n })?.incrementBy).toBe(n);
  });

  test.each([[0], [11], [-1], [1.5], ["2"], [[2]], [Number.NaN], [true]])("incrementBy %p is invalid", (n) => {
    expect(parsePreferenceBody({ genre: "house", incrementBy: n })).toBeUndefined();
  });

  test.each([[{ genre: "techno" }], [{ genre: ["house"] }], [{}], [null], [{ genre: 3 }]])("%j is invalid", (body) => {
    expect(parsePreferenceBody(body)).toBeUndefined();
  });
});

describe("property: parsers never throw and only accept what fits the schema", () => {
  const value = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
  test("engagement", () => {
    fc.assert(
      fc.property(fc.record({ eventKey: value, actionType: fc.oneof(fc.constantFrom("click", "outbound_click", "calendar_sync"), value), sessionId: value, source: value, path: value }, { requiredKeys: [] }), (body) => {
        const parsed = parseEngagementBody(body);
        if (!parsed) return;
        expect(parsed.eventKey.length).toBeGreaterThan(0);
        expect([...parsed.eventKey].length).toBeLessThanOrEqual(220);
        for (const [v, max] of [[parsed.sessionId, 120], [parsed.source, 80], [parsed.path, 280]] as const) if (v !== null) expect([...v].length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 1000 },
    );
  });
});
