import { describe, expect, test } from "bun:test";
import { ogText, parseOgParams } from "../../../src/lib/og/params.ts";

const parse = (query: string) => parseOgParams(new URLSearchParams(query), "finder");

describe("OG parameters", () => {
  test.each([
    ["<b>Bold</b> move", "bBold/b move"],
    ["  spaced   out  ", "spaced out"],
    ["x".repeat(110), "x".repeat(110)],
    ["x".repeat(111), `${"x".repeat(109)}…`],
    ["🎶".repeat(120), `${"🎶".repeat(109)}…`],
  ])("ogText(%p)", (input, expected) => {
    expect(ogText(input)).toBe(expected);
  });

  test("default variant: site name and count-based subtitle", () => {
    expect(parse("")).toMatchObject({ variant: "default", title: "finder", subtitle: "Curated Paris music picks.", eventCount: 0 });
    expect(parse("eventCount=42")).toMatchObject({ title: "finder", subtitle: "42 curated Paris picks.", eventCount: 42 });
  });

  test("event-modal with an arrondissement: area title and route subtitle; unknown variants are default", () => {
    expect(parse("variant=event-modal&arrondissement=11e&eventCount=7")).toMatchObject({ title: "Events in 11e", subtitle: "7 live picks for your Paris route." });
    expect(parse("variant=event-modal&arrondissement=11e")).toMatchObject({ subtitle: "Curated live music picks for your Paris route." });
    expect(parse("variant=event-modal&title=Rooftop%20House")).toMatchObject({ title: "Rooftop House", subtitle: "Curated Paris music picks." });
    expect(parse("variant=sideways").variant).toBe("default");
  });

  test("eventCount is an integer clamped to 0–9999; genres keep at most 3", () => {
    expect(parse("eventCount=-5").eventCount).toBe(0);
    expect(parse("eventCount=123456").eventCount).toBe(9999);
    expect(parse("eventCount=12.9").eventCount).toBe(12);
    expect(parse("eventCount=abc").eventCount).toBe(0);
    expect(parse("genres=House,%3Cscript%3E,Disco,Funk,Pop").genres).toEqual(["House", "script", "Disco"]);
  });
});
