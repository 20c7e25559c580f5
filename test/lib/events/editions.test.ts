// The edition rules (docs/editions.md): which edition, which window, which state, on the Paris
// calendar; the events of one edition; the window rules the console is held to.

import { describe, expect, test } from "bun:test";
import { countOfEdition, currentEdition, editionOf, editionState, eventsOfEdition, previousEdition, windowProblem } from "../../../src/lib/events/editions.ts";

describe("editions", () => {
  test("the default window is 15 to 22 June with the night on the 21st; a set window replaces it for its year only", () => {
    expect(editionOf(2027)).toEqual({ year: 2027, from: "2027-06-15", to: "2027-06-22", night: "2027-06-21" });
    const windows = { "2027": { from: "2027-06-18", to: "2027-06-23", night: "2027-06-22" } };
    expect(editionOf(2027, windows).night).toBe("2027-06-22");
    expect(editionOf(2028, windows).night).toBe("2028-06-21");
  });

  test.each([
    ["2026-06-14T21:59:00Z", 2026, "upcoming"],
    ["2026-06-14T22:00:00Z", 2026, "live"], // 15 June has begun in Paris
    ["2026-06-21T19:30:00Z", 2026, "live"],
    ["2026-06-22T21:59:00Z", 2026, "live"],
    ["2026-06-22T22:00:00Z", 2027, "upcoming"], // 23 June in Paris: 2026 is over
    ["2026-12-07T12:00:00Z", 2027, "upcoming"],
    ["2026-12-31T23:30:00Z", 2027, "upcoming"],
  ])("at %s the current edition is %d, %s", (at, year, state) => {
    const now = new Date(at);
    const edition = currentEdition(now);
    expect(edition.year).toBe(year);
    expect(editionState(edition, now)).toBe(state as never);
  });

  test("the previous edition is the year before the current one, and past off season", () => {
    const now = new Date("2026-12-07T12:00:00Z");
    expect(previousEdition(now).year).toBe(2026);
    expect(editionState(previousEdition(now), now)).toBe("past");
  });

  test("an edition's events are those of its year, undated ones included; the whole list when all fit", () => {
    const events = [{ date: "2026-06-21" }, { date: "2027-06-20" }, { date: "" }, { date: "2026-06-19" }];
    expect(eventsOfEdition(events, 2026)).toEqual([{ date: "2026-06-21" }, { date: "" }, { date: "2026-06-19" }]);
    expect(eventsOfEdition(events, 2027)).toEqual([{ date: "2027-06-20" }, { date: "" }]);
    expect(eventsOfEdition(events, 2026)).toBe(eventsOfEdition(events, 2026));
    const june = [{ date: "2026-06-21" }, { date: "2026-06-20" }];
    expect(eventsOfEdition(june, 2026)).toBe(june);
    expect(countOfEdition(events, 2026)).toBe(2);
    expect(countOfEdition(events, 2025)).toBe(0);
  });

  test.each([
    [2027, { from: "2027-06-15", to: "2027-06-22", night: "2027-06-21" }, null],
    [2027, { from: "2027-06-22", to: "2027-06-15", night: "2027-06-21" }, "from"],
    [2027, { from: "2027-06-15", to: "2027-06-22", night: "2027-06-23" }, "night"],
    [2027, { from: "2028-06-15", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [2027, { from: "2027-06-15", to: "2027-06-31", night: "2027-06-21" }, "to"],
    [2027, { from: "2027-01-01", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [1999, { from: "1999-06-15", to: "1999-06-22", night: "1999-06-21" }, "year"],
  ])("a window of %d %j: problem with %p", (year, window, field) => {
    expect(windowProblem(year, window)?.field ?? null).toBe(field as never);
  });
});
