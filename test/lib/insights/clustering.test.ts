// Search clustering on crafted query sets, in both modes.

import { describe, expect, test } from "bun:test";
import { clusterQueries, normaliseQuery, parseClusterMode, type QueryCount } from "../../../src/lib/insights/clustering.ts";

const q = (query: string, count: number): QueryCount => ({ query, count });
const shape = (queries: QueryCount[], mode: "conservative" | "aggressive") => clusterQueries(queries, mode).map((c) => [c.query, c.count, c.variants.map((v) => v.query)]);

describe("normaliseQuery", () => {
  const cases: [string, string][] = [
    ["  Afro-House ", "afro house"],
    ["afrohouse", "afro house"],
    ["RnB", "r&b"],
    ["r and b", "r&b"],
    ["R&B!!", "r&b"],
    ["hiphop", "hip hop"],
    ["UKG night", "uk garage night"],
    ["Électro   Café", "electro cafe"],
    ["<script>alert(1)</script>", "script alert 1 script"],
    ["🎶🎶", ""],
    ["موسيقى حية", "موسيقى حية"],
  ];
  for (const [input, expected] of cases) test(JSON.stringify(input), () => expect(normaliseQuery(input)).toBe(expected));
});

describe("conservative", () => {
  test("typos within the edit limit join the most frequent variant", () => {
    expect(shape([q("techno", 10), q("tecno", 3), q("techn0", 1), q("jazz", 4)], "conservative")).toEqual([
      ["techno", 14, ["techno", "tecno", "techn0"]],
      ["jazz", 4, ["jazz"]],
    ]);
  });
  test('short forms allow one edit only, so "rap" and "pop" stay apart', () => {
    expect(shape([q("rap", 5), q("pop", 4), q("raps", 2)], "conservative")).toEqual([
      ["rap", 7, ["rap", "raps"]],
      ["pop", 4, ["pop"]],
    ]);
  });
  test("same normalised or compact form: synonyms and spacing", () => {
    expect(shape([q("afro house", 3), q("afrohouse", 2), q("afro-house", 2), q("rnb", 1), q("r&b", 1)], "conservative")).toEqual([
      ["afro house", 7, ["afro house", "afro-house", "afrohouse"]],
      ["r&b", 2, ["r&b", "rnb"]],
    ]);
  });
  test("longer forms allow two edits, three is too many", () => {
    expect(shape([q("dancehall", 5), q("dancehal", 1), q("dncehal", 1), q("dnchal", 1)], "conservative").map((c) => c[1])).toEqual([7, 1]);
  });
  test("containment and token sets do not merge in conservative mode", () => {
    expect(shape([q("jazz festival", 3), q("festival jazz", 2), q("jazzy", 1)], "conservative")).toHaveLength(3);
  });
  test("emoji-only queries join only themselves", () => {
    expect(shape([q("🎶", 2), q("🎸", 1)], "conservative")).toEqual([
      ["🎶", 2, ["🎶"]],
      ["🎸", 1, ["🎸"]],
    ]);
  });
});

describe("aggressive", () => {
  test("token-set Jaccard ≥ 0.8 and containment of a form of at least 5 characters", () => {
    expect(shape([q("jazz festival", 3), q("festival jazz", 2), q("house", 4), q("deep house paris", 1), q("rap", 2), q("trap", 1)], "aggressive")).toEqual([
      ["house", 5, ["house", "deep house paris"]],
      ["jazz festival", 5, ["jazz festival", "festival jazz"]],
      ["rap", 3, ["rap", "trap"]],
    ]);
  });
  test("a short form (under 5) contained in another stays apart unless within one edit", () => {
    expect(shape([q("pop", 3), q("kpop night", 1)], "aggressive")).toHaveLength(2);
  });
});

test("deterministic order: clusters by count then text, variants by count then text", () => {
  const input = [q("omega", 1), q("alpha", 1), q("zz top", 2), q("zz tops", 2)];
  const out = clusterQueries(input, "conservative");
  expect(out.map((c) => c.query)).toEqual(["zz top", "alpha", "omega"]);
  expect(out[0].variants).toEqual([q("zz top", 2), q("zz tops", 2)]);
  expect(clusterQueries([...input].reverse(), "conservative")).toEqual(out);
});

test("at most 20 clusters; 280-character queries and markup are handled", () => {
  const many = Array.from({ length: 40 }, (_, i) => q(`query number ${"x".repeat(i)}${i}`, 40 - i));
  expect(clusterQueries(many, "aggressive").length).toBeLessThanOrEqual(20);
  const long = "é".repeat(140) + "<b>".repeat(46) + "xy";
  expect(clusterQueries([q(long, 1)], "conservative")).toEqual([{ query: long, count: 1, variantCount: 1, variants: [q(long, 1)] }]);
});

test("parseClusterMode: absent is conservative, unknown is refused", () => {
  expect(parseClusterMode(undefined)).toBe("conservative");
  expect(parseClusterMode("Aggressive")).toBe("aggressive");
  expect(parseClusterMode("fuzzy")).toBeUndefined();
  expect(parseClusterMode(["conservative"])).toBeUndefined();
});
