// Header → field mapping: canonical headers, older aliases, branded pick columns, Featured, duplicates, essentials.

import { describe, expect, test } from "bun:test";
import {
  CANONICAL_HEADERS,
  fieldsOfRow,
  findFieldForHeader,
  isFeaturedHeader,
  mapSheetHeaders,
  SHEET_COLUMNS,
} from "../../../src/lib/sheet/columns.ts";
import { normaliseStatusNote, parseEventStatus } from "../../../src/lib/sheet/status.ts";

test("the 22 canonical headers in export order", () => {
  expect(CANONICAL_HEADERS).toEqual([
    "Title",
    "Curated",
    "Date",
    "Date To",
    "Start Time",
    "End Time",
    "Host Country",
    "Location",
    "Area",
    "Price",
    "Categories",
    "Primary URL",
    "Age Guidance",
    "Setting",
    "Audience Country",
    "Event Category",
    "Notes",
    "Tags",
    "Series Key",
    "Event Key",
    "Status",
    "Status Note",
  ]);
});

describe("findFieldForHeader", () => {
  test.each([
    ["Title", "title"],
    ["Name", "title"],
    ["Event Name", "title"],
    ["Curated", "curated"],
    ["Curated Pick", "curated"],
    ["Pick", "curated"],
    ["Picks", "curated"],
    ["OOOC Picks", "curated"],
    ["Finder Pick", "curated"],
    ["Start Date", "date"],
    ["Date To (End)", "dateTo"],
    ["Date Until", "dateTo"],
    ["End Date", "dateTo"],
    ["Start time", "startTime"],
    ["startTime", "startTime"],
    ["END TIME", "endTime"],
    ["GB/FR", "hostCountry"],
    ["Nationality", "hostCountry"],
    ["Country", "hostCountry"],
    ["Venue", "location"],
    ["District/Area", "area"],
    ["District", "area"],
    ["Arr.", "area"],
    ["Arrondissement", "area"],
    ["Genre", "categories"],
    ["Genres", "categories"],
    ["Ticket link", "primaryUrl"],
    ["Link", "primaryUrl"],
    ["URL", "primaryUrl"],
    ["primaryUrl", "primaryUrl"],
    ["Age", "ageGuidance"],
    ["Indoor/Outdoor", "setting"],
    ["Audience Country", "audienceCountry"],
    ["Experience Category", "eventCategory"],
    ["Experience Type", "eventCategory"],
    ["Party / Activity", "eventCategory"],
    ["Party or Activity", "eventCategory"],
    ["Description", "notes"],
    ["Event Series", "seriesKey"],
    ["Series", "seriesKey"],
    ["eventKey", "eventKey"],
    ["Event Key", "eventKey"],
    ["dateTo", "dateTo"],
  ])("%p → %p", (header, field) => {
    expect(findFieldForHeader(header)).toBe(field as never);
  });

  test.each([["Featured"], ["FEATURED"], ["Organiser phone"], [""], ["Best Pick Ever"], ["Pick Me"]])(
    "%p is ignored",
    (header) => {
      expect(findFieldForHeader(header)).toBeNull();
    },
  );

  test("every canonical header and alias maps to its own field", () => {
    for (const column of SHEET_COLUMNS) {
      for (const name of [column.header, column.key, ...column.aliases]) expect(findFieldForHeader(name)).toBe(column.key);
    }
  });
});

test("isFeaturedHeader matches any case only", () => {
  expect([isFeaturedHeader(" featured "), isFeaturedHeader("Featured At")]).toEqual([true, false]);
});

describe("mapSheetHeaders", () => {
  test("maps, keeps unknown columns as null and reports nothing for a usable header", () => {
    const mapping = mapSheetHeaders(["Name", "Date", "Featured", "Organiser", "Genre"]);
    expect(mapping).toEqual({
      fieldByColumn: ["title", "date", null, null, "categories"],
      columnByField: { title: 0, date: 1, categories: 4 },
      issues: [],
    });
  });

  test.each([
    [["Location", "Notes"], "Missing essential CSV columns: title, date"],
    [["Title", "Location"], "Missing essential CSV columns: date"],
    [["Date", "Venue"], "Missing essential CSV columns: title"],
  ])("%p → %p", (headers, message) => {
    expect(mapSheetHeaders(headers).issues).toEqual([
      { type: "missing_columns", message, rows: [] },
    ]);
  });

  test("duplicate mappings name the headers, grouped per field", () => {
    expect(mapSheetHeaders(["Title", "Name", "Date", "Genre", "Categories", "Start Date"]).issues).toEqual([
      { type: "duplicate_columns", message: "Duplicate CSV column mappings: Title, Name; Date, Start Date; Genre, Categories", rows: [] },
    ]);
  });

  test("a duplicate keeps the first column for reading", () => {
    const mapping = mapSheetHeaders(["Title", "Date", "Name"]);
    expect(mapping.columnByField.title).toBe(0);
    expect(fieldsOfRow(["A", "2026-06-21", "B"], mapping.columnByField).title).toBe("A");
  });
});

describe("event status cells", () => {
  test.each([
    ["", "scheduled", false],
    ["Cancelled", "cancelled", false],
    ["canceled", "cancelled", false],
    ["ANNULÉ", "cancelled", false],
    ["annulée", "cancelled", false],
    ["Déplacé", "moved", false],
    ["sold-out", "full", false],
    ["Complet", "full", false],
    ["maybe", "scheduled", true],
  ])("%p reads as %p (unexpected: %p)", (cell, status, unexpected) => {
    expect(parseEventStatus(cell)).toEqual({ status: status as never, unexpected });
  });

  test("a status note is collapsed and cut at a word boundary", () => {
    expect(normaliseStatusNote("  Rain:\n moved   indoors ")).toBe("Rain: moved indoors");
    const long = normaliseStatusNote("word ".repeat(60));
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long.endsWith("…")).toBe(true);
    expect(long).not.toContain("wor…");
  });

  test("the Status headers map to their fields", () => {
    expect(findFieldForHeader("Status")).toBe("status");
    expect(findFieldForHeader("Event Status")).toBe("status");
    expect(findFieldForHeader("Status Reason")).toBe("statusNote");
  });
});
