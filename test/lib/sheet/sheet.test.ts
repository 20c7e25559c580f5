// The sheet entry point (docs/sheet.md, all rules together): old layouts, full events, multi-day
// rows, keys, warnings, hostile text.

import { describe, expect, test } from "bun:test";
import { CANONICAL_HEADERS } from "../../../src/lib/sheet/columns.ts";
import { toCsv } from "../../../src/lib/sheet/csv.ts";
import { generateOccurrenceKey } from "../../../src/lib/sheet/keys.ts";
import { checkSheetSchema, parseEventSheet, rekeySheetTable, type EventSheet } from "../../../src/lib/sheet/sheet.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";

const NOW = new Date("2026-06-01T10:00:00Z");

function sha16(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

/** A canonical-layout CSV from partial rows keyed by header. */
function sheet(rows: Record<string, string>[], headers: readonly string[] = CANONICAL_HEADERS): string {
  return toCsv(headers, rows.map((row) => headers.map((header) => row[header] ?? "")));
}

function parseOk(csv: string): EventSheet {
  const result = parseEventSheet(csv, { now: NOW });
  if (!result.ok) throw new Error(`expected a readable sheet, got: ${result.error}`);
  return result;
}

const PROJECTIONS = {
  isFeatured: false,
  featuredAt: null,
  featuredEndsAt: null,
  isPromoted: false,
  promotedAt: null,
  promotedEndsAt: null,
  calendarSyncCount: 0,
  savedCount: 0,
};

describe("the oldest layout", () => {
  const OLDEST = [
    "Picks,Name,GB/FR,Date,Start time,End time,Location,Arr.,Genre,Price,Ticket link,Age,Indoor/Outdoor,Notes",
    "Yes,IMERSIV Summer Party - Day 1,GB/FR,sam. 20 juin,2:00 pm,20h30,near Oberkampf,,R&B / Afro House,£10,imersiv.example/tickets,18+,Indoor/Outdoor,Bring ID",
    ",Jazz in the Park,FR,21/06,TBC,,Parc Floral,12e,Jazz,Free,,All ages,Outdoor,",
  ].join("\r\n");

  test("parses without edits into complete events", () => {
    const result = parseOk(OLDEST);
    const key1 = `evt_${sha16("title:imersiv summer party - day 1|date:sam. 20 juin|startTime:2:00 pm|location:near oberkampf|area:")}`;
    const key2 = `evt_${sha16("title:jazz in the park|date:21/06|startTime:tbc|location:parc floral|area:12e")}`;
    expect(result.events).toStrictEqual<LiveEvent[]>([
      {
        eventKey: key1,
        slug: "imersiv-summer-party-day-1",
        eventName: "IMERSIV Summer Party - Day 1",
        date: "2026-06-20",
        day: "saturday",
        time: "14:00",
        endTime: "20:30",
        location: "near Oberkampf",
        arrondissement: 11,
        genres: ["r&b", "afro house"],
        nationality: ["UK", "FR"],
        venueTypes: ["indoor", "outdoor"],
        price: "£10",
        priceValue: 11.7,
        age: "18+",
        ageValue: 18,
        link: "https://imersiv.example/tickets",
        curated: true,
        type: "Day Party",
        category: null,
        tags: [],
        description: "Bring ID",
        seriesKey: null,
        occurrenceIndex: 1,
        occurrenceCount: 1,
        dateRangeStart: "2026-06-20",
        dateRangeEnd: "2026-06-20",
        verified: true,
        status: "scheduled",
        statusNote: "",
        firstPublishedAt: null,
        changedAt: null,
        sequence: 0,
        ...PROJECTIONS,
      },
      {
        eventKey: key2,
        slug: "jazz-in-the-park",
        eventName: "Jazz in the Park",
        date: "2026-06-21",
        day: "sunday",
        time: "TBC",
        location: "Parc Floral",
        arrondissement: 12,
        genres: ["jazz"],
        nationality: ["FR"],
        venueTypes: ["outdoor"],
        price: "Free",
        priceValue: 0,
        age: "All ages",
        ageValue: 0,
        link: null,
        curated: false,
        type: "Day Party",
        category: null,
        tags: [],
        description: "",
        seriesKey: null,
        occurrenceIndex: 1,
        occurrenceCount: 1,
        dateRangeStart: "2026-06-21",
        dateRangeEnd: "2026-06-21",
        verified: false,
        status: "scheduled",
        statusNote: "",
        firstPublishedAt: null,
        changedAt: null,
        sequence: 0,
        ...PROJECTIONS,
      },
    ]);
    expect(result.columns).toEqual(OLDEST.split("\r\n")[0].split(","));
    expect(result.fieldByColumn).toEqual([
      "curated", "title", "hostCountry", "date", "startTime", "endTime", "location", "area",
      "categories", "price", "primaryUrl", "ageGuidance", "setting", "notes",
    ]);
    expect(result.keyStats).toEqual({ missingEventKeyCount: 2, generatedEventKeyCount: 2 });
    expect(result.warnings).toEqual([
      { row: 2, type: "inferred_year", message: 'Date "sam. 20 juin" has no year; read as 2026-06-20', field: "date" },
      { row: 2, type: "missing_event_key", message: `Event Key is missing; generated ${key1}`, field: "eventKey" },
      { row: 3, type: "unreadable_time", message: '"TBC" is not a recognised time; shown as written', field: "startTime" },
      { row: 3, type: "inferred_year", message: 'Date "21/06" has no year; read as 2026-06-21', field: "date" },
      { row: 3, type: "missing_event_key", message: `Event Key is missing; generated ${key2}`, field: "eventKey" },
    ]);
    expect(result.schemaReport).toEqual({ ok: true, blocking: [], warnings: result.warnings, blockingCount: 0, warningCount: 5 });
    expect(result.rows.map((row) => [row.rowNumber, row.fields.eventKey, row.keyOutcome])).toEqual([
      [2, key1, "missing"],
      [3, key2, "missing"],
    ]);
  });
});

describe("multi-day rows", () => {
  const csv = sheet([
    { Title: "Before", Date: "2026-06-18", Location: "Club", Area: "3" },
    { Title: "Garden Festival", Date: "19 June 2026", "Date To": "21 June 2026", "Start Time": "14:00", Location: "Jardin", Area: "17e", "Primary URL": "https://g.example" },
    { Title: "After", Date: "2026-06-18", Location: "Club", Area: "3" },
  ]);

  test("expand per day in date order at the row's position, with distinct keys and one series", () => {
    const result = parseOk(csv);
    expect(result.events.map((e) => [e.eventName, e.date, e.day, e.occurrenceIndex, e.occurrenceCount])).toEqual([
      ["Before", "2026-06-18", "thursday", 1, 1],
      ["Garden Festival", "2026-06-19", "friday", 1, 3],
      ["Garden Festival", "2026-06-20", "saturday", 2, 3],
      ["Garden Festival", "2026-06-21", "sunday", 3, 3],
      ["After", "2026-06-18", "thursday", 1, 1],
    ]);
    const festival = result.events.slice(1, 4);
    const fingerprint = "title:garden festival|date:19 june 2026|startTime:14:00|location:jardin|area:17e";
    expect(festival.map((e) => e.eventKey)).toEqual([
      `evt_${sha16(fingerprint)}`,
      `evt_${sha16(`${fingerprint}|occurrence:2026-06-20`)}`,
      `evt_${sha16(`${fingerprint}|occurrence:2026-06-21`)}`,
    ]);
    const seriesKey = `ser_${sha16("series|garden festival|14:00|jardin|17e|https://g.example")}`;
    for (const e of festival) {
      expect([e.seriesKey, e.dateRangeStart, e.dateRangeEnd, e.time, e.slug]).toEqual([
        seriesKey, "2026-06-19", "2026-06-21", "14:00", "garden-festival",
      ]);
    }
    expect(result.rows).toHaveLength(3);
    expect(result.rows[1].fields.eventKey).toBe(festival[0].eventKey);
    expect(result.events[0].seriesKey).toBeNull();
  });

  test("occurrences do not share mutable lists", () => {
    const result = parseOk(csv);
    result.events[1].genres.push("house");
    expect(result.events[2].genres).toEqual([]);
  });

  test("an occurrence key already used by another row is salted", () => {
    const fingerprint = "title:garden festival|date:19 june 2026|startTime:14:00|location:jardin|area:17e";
    const clash = generateOccurrenceKey(fingerprint, "2026-06-20");
    const result = parseOk(
      sheet([
        { Title: "Garden Festival", Date: "19 June 2026", "Date To": "21 June 2026", "Start Time": "14:00", Location: "Jardin", Area: "17e" },
        { Title: "Squatter", Date: "2026-06-20", "Event Key": clash },
      ]),
    );
    expect(result.events.map((e) => e.eventKey)).toEqual([
      `evt_${sha16(fingerprint)}`,
      `evt_${sha16(`${fingerprint}|occurrence:2026-06-20|salt:1`)}`,
      `evt_${sha16(`${fingerprint}|occurrence:2026-06-21`)}`,
      clash,
    ]);
  });

  test.each([
    ["same day", "2026-06-21", "Date To is the same day as Date; single-day event"],
    ["earlier", "2026-06-20", "Date To is earlier than Date; single-day event"],
    ["too long", "2026-07-23", "Date To is more than 31 days after Date; single-day event"],
    ["ambiguous", "06/07/2026", 'Date To "06/07/2026" is ambiguous (day-first or month-first); single-day event'],
    ["unparseable", "soon", 'Date To "soon" is not a recognised date; single-day event'],
  ])("Date To %s → warning and one event", (_name, dateTo, message) => {
    const result = parseOk(sheet([{ Title: "X", Date: "2026-06-21", "Date To": dateTo, "Event Key": "evt_xxxxxxxxxxxx" }]));
    expect(result.events.map((e) => [e.date, e.occurrenceCount, e.seriesKey])).toEqual([["2026-06-21", 1, null]]);
    expect(result.warnings).toEqual([{ row: 2, type: "invalid_date_to", message, field: "dateTo" }]);
  });

  test("31 days after Date still expands; a valid Series Key cell is kept", () => {
    const result = parseOk(
      sheet([{ Title: "Month", Date: "2026-06-01", "Date To": "2026-07-02", "Series Key": "SER_MONTHLONG2026", "Event Key": "evt_monthmonthmonth" }]),
    );
    expect(result.events).toHaveLength(32);
    expect(new Set(result.events.map((e) => e.eventKey)).size).toBe(32);
    expect(result.events[31]).toMatchObject({ date: "2026-07-02", occurrenceIndex: 32, seriesKey: "ser_monthlong2026" });
  });

  test("a single-day row keeps a valid Series Key and warns about an invalid one", () => {
    const result = parseOk(
      sheet([
        { Title: "A", Date: "2026-06-21", "Series Key": "ser_abcdefabcdef", "Event Key": "evt_aaaaaaaaaaaa" },
        { Title: "B", Date: "2026-06-21", "Series Key": "weekly", "Event Key": "evt_bbbbbbbbbbbb" },
      ]),
    );
    expect(result.events.map((e) => [e.seriesKey, e.occurrenceIndex, e.occurrenceCount])).toEqual([
      ["ser_abcdefabcdef", 1, 1],
      [null, 1, 1],
    ]);
    expect(result.warnings).toEqual([
      { row: 3, type: "invalid_series_key", message: 'Series Key "weekly" is invalid (expected ser_ and 12–20 lowercase letters or digits)', field: "seriesKey" },
    ]);
  });
});

describe("event keys across the sheet", () => {
  test("a duplicated explicit key stays with the first row; later rows are re-keyed with a warning", () => {
    const result = parseOk(
      sheet([
        { Title: "First", Date: "2026-06-21", "Event Key": "evt_sharedshared1" },
        { Title: "Second", Date: "2026-06-21", "Event Key": " EVT_SHAREDSHARED1 " },
        { Title: "Third", Date: "2026-06-21", "Event Key": "evt_bad" },
        { Title: "Fourth", Date: "2026-06-21" },
      ]),
    );
    const generated = (title: string) => `evt_${sha16(`title:${title}|date:2026-06-21|startTime:|location:|area:`)}`;
    expect(result.events.map((e) => e.eventKey)).toEqual(["evt_sharedshared1", generated("second"), generated("third"), generated("fourth")]);
    expect(result.keyStats).toEqual({ missingEventKeyCount: 2, generatedEventKeyCount: 3 });
    expect(result.warnings).toEqual([
      {
        row: 3,
        type: "duplicate_event_key",
        message: `Event Key "EVT_SHAREDSHARED1" is already used by an earlier row; generated ${generated("second")}`,
        field: "eventKey",
      },
      { row: 4, type: "invalid_event_key", message: `Event Key "evt_bad" is invalid; generated ${generated("third")}`, field: "eventKey" },
      { row: 5, type: "missing_event_key", message: `Event Key is missing; generated ${generated("fourth")}`, field: "eventKey" },
    ]);
    expect(result.rows.map((row) => row.cells[19])).toEqual(result.events.map((e) => e.eventKey));
  });

  test("parsing is deterministic", () => {
    const csv = sheet([{ Title: "Same", Date: "2026-06-21" }, { Title: "Same", Date: "2026-06-21" }]);
    const first = parseOk(csv).events.map((e) => e.eventKey);
    expect(parseOk(csv).events.map((e) => e.eventKey)).toEqual(first);
    expect(first[0]).not.toBe(first[1]);
  });
});

describe("warnings", () => {
  test("every schema warning type carries its row number and field", () => {
    const result = parseOk(
      sheet([
        { Title: "A", Date: "06/07/2026", Curated: "maybe", "Host Country": "US", Area: "Greater Paris", Setting: "Boat", "Event Key": "evt_aaaaaaaaaaaa" },
        { Title: "B", Date: "31 June 2026", "Audience Country": "FR, Nigeria", "Event Key": "evt_bbbbbbbbbbbb" },
        { Title: "C", Date: "soon", Area: "-", "Event Key": "evt_cccccccccccc" },
        { Title: "D", Date: "", Area: "TBC", "Event Key": "evt_dddddddddddd" },
      ]),
    );
    expect(result.warnings).toEqual([
      { row: 2, type: "unexpected_curated", message: 'Curated value "maybe" is not recognised; read as not curated', field: "curated" },
      { row: 2, type: "ambiguous", message: 'Date "06/07/2026" is ambiguous (day-first or month-first)', field: "date" },
      { row: 2, type: "unsupported_nationality", message: 'Unsupported nationality "us" is ignored', field: "hostCountry" },
      { row: 2, type: "unexpected_area", message: 'Area "Greater Paris" is not 1–20, "-" or blank; read as unknown', field: "area" },
      { row: 2, type: "unknown_setting", message: 'Setting "Boat" names neither indoor nor outdoor', field: "setting" },
      { row: 3, type: "invalid", message: 'Date "31 June 2026" is not a real calendar date', field: "date" },
      { row: 3, type: "unsupported_nationality", message: 'Unsupported nationality "nigeria" is ignored', field: "audienceCountry" },
      { row: 4, type: "unparseable", message: 'Date "soon" is not a recognised date', field: "date" },
      { row: 5, type: "unparseable", message: "Date is empty", field: "date" },
      { row: 5, type: "unexpected_area", message: 'Area "TBC" is not 1–20, "-" or blank; read as unknown', field: "area" },
    ]);
    expect(result.events.map((e) => [e.date, e.day])).toEqual([["", "tbc"], ["", "tbc"], ["", "tbc"], ["", "tbc"]]);
  });

  test("a time that is no clock time, a price without an amount and a country cell naming no country are warned about", () => {
    const result = parseOk(
      sheet([
        { Title: "A", Date: "2026-06-21", "Start Time": "late", "End Time": "22h", Price: "donation", "Host Country": "Narnia", "Event Key": "evt_aaaaaaaaaaaa" },
        { Title: "B", Date: "2026-06-21", "End Time": "till dawn", Price: "TBA", "Audience Country": "Mixed crowd", "Event Key": "evt_bbbbbbbbbbbb" },
        { Title: "C", Date: "2026-06-21", Price: "10€", "Host Country": "France", "Audience Country": "TBC", "Event Key": "evt_cccccccccccc" },
      ]),
    );
    expect(result.warnings).toEqual([
      { row: 2, type: "unreadable_time", message: '"late" is not a recognised time; shown as written', field: "startTime" },
      { row: 2, type: "unreadable_price", message: '"donation" gives no amount; the price filter ignores it', field: "price" },
      { row: 2, type: "unknown_nationality", message: '"Narnia" names no supported country (UK, FR, CA, NL); ignored', field: "hostCountry" },
      { row: 3, type: "unreadable_time", message: '"till dawn" is not a recognised time; shown as written', field: "endTime" },
      { row: 3, type: "unknown_nationality", message: '"Mixed crowd" names no supported country (UK, FR, CA, NL); ignored', field: "audienceCountry" },
    ]);
    expect(result.schemaReport).toMatchObject({ ok: true, blockingCount: 0, warningCount: 5 });
  });

  test("every non-blank row yields an event even when every field is invalid", () => {
    const result = parseOk(sheet([{ Title: "", Date: "", "Start Time": "whenever", Area: "nowhere", Price: "??" }]));
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({ eventName: "", slug: "event", date: "", day: "tbc", time: "whenever", arrondissement: "unknown", priceValue: null });
  });

  test("the inferred year is the sheet's most common explicit year", () => {
    const result = parseOk(
      sheet([
        { Title: "A", Date: "2027-06-19" },
        { Title: "B", Date: "20/06/2027" },
        { Title: "C", Date: "2028-06-19" },
        { Title: "D", Date: "21/06" },
      ]),
    );
    expect(result.inferredYear).toBe(2027);
    expect(result.events[3].date).toBe("2027-06-21");
  });

  test("without any explicit year the current Paris year at `now` is used", () => {
    const csv = sheet([{ Title: "A", Date: "21 juin" }]);
    const newYearsEve = parseEventSheet(csv, { now: new Date("2026-12-31T23:30:00Z") });
    expect(newYearsEve.ok && newYearsEve.events[0].date).toBe("2027-06-21");
  });
});

describe("hostile and unusual text", () => {
  test("markup, formula-looking cells and unicode are kept verbatim as text", () => {
    const cells = {
      Title: '<script>alert("x")</script> 🎉',
      Date: "2026-06-21",
      Location: "=HYPERLINK(\"http://evil.example\",\"click\")",
      Price: "+cmd|' /C calc'!A0",
      "Age Guidance": "@SUM(1+1)",
      Notes: "Line one\nLine two <img src=x onerror=alert(1)> ‮txet desrever‬ Ünïcødé 中文",
      Tags: "-2+3, <b>bold</b>",
      "Event Key": "evt_hostilehostile",
    };
    const result = parseOk(sheet([cells]));
    const event = result.events[0];
    expect([event.eventName, event.location, event.price, event.age, event.description, event.tags]).toEqual([
      cells.Title,
      cells.Location,
      cells.Price,
      cells["Age Guidance"],
      cells.Notes,
      ["-2+3", "<b>bold</b>"],
    ]);
    expect(event.slug).toBe("script-alert-x-script");
    expect(result.rows[0].fields.notes).toBe(cells.Notes);
  });

  test("a Featured column and custom columns are ignored", () => {
    const result = parseOk(sheet([{ Title: "A", Date: "2026-06-21", Featured: "yes", Organiser: "Bob" }], ["Title", "Date", "Featured", "Organiser"]));
    expect(result.fieldByColumn).toEqual(["title", "date", null, null]);
    expect(result.events[0].curated).toBe(false);
  });
});

describe("blocking issues", () => {
  test("a missing Title column fails the parse but still reports row warnings", () => {
    const result = parseEventSheet("Name2,Date\nX,21/06\n", { now: NOW });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe("Missing essential CSV columns: title");
    expect(result.blocking).toEqual([{ type: "missing_columns", message: "Missing essential CSV columns: title", rows: [] }]);
    expect(result.schemaReport.ok).toBe(false);
    expect(result.schemaReport.warnings.map((w) => w.type)).toEqual(["inferred_year", "missing_event_key"]);
  });

  test("checkSheetSchema reports structure mismatch and duplicates together", () => {
    const report = checkSheetSchema("Title,Name,Date\nA,B,2026-06-21,extra\n", { now: NOW });
    expect(report.blocking.map((issue) => issue.message)).toEqual([
      "Duplicate CSV column mappings: Title, Name",
      "CSV row structure mismatch in 1 row(s): 2",
    ]);
    expect(report.blockingCount).toBe(2);
  });
});

describe("rekeySheetTable", () => {
  test("adds an Event Key column when absent, with the keys the parser assigns", () => {
    const header = ["Name", "Date", "Custom"];
    const rows = [["A", "2026-06-21", "x"], ["", "", "only custom"], ["A", "2026-06-21"]];
    const rekeyed = rekeySheetTable(header, rows);
    const parsed = parseOk(toCsv(header, rows));
    expect(rekeyed.header).toEqual(["Name", "Date", "Custom", "Event Key"]);
    expect(rekeyed.rows).toEqual([
      ["A", "2026-06-21", "x", parsed.events[0].eventKey],
      ["", "", "only custom", ""],
      ["A", "2026-06-21", "", parsed.events[1].eventKey],
    ]);
    expect([rekeyed.missingEventKeyCount, rekeyed.generatedEventKeyCount]).toEqual([2, 2]);
    const reread = parseOk(toCsv(rekeyed.header, rekeyed.rows));
    expect(reread.events.map((e) => e.eventKey)).toEqual(parsed.events.map((e) => e.eventKey));
    expect(reread.keyStats).toEqual({ missingEventKeyCount: 0, generatedEventKeyCount: 0 });
  });

  test("writes into an existing Event Key column, keeping valid keys and re-keying duplicates", () => {
    const header = ["Title", "Date", "Event Key"];
    const rows = [["A", "2026-06-21", "EVT_KEEPKEEPKEEP"], ["B", "2026-06-21", "evt_keepkeepkeep"], ["C", "2026-06-21", ""]];
    const rekeyed = rekeySheetTable(header, rows);
    expect(rekeyed.header).toEqual(header);
    expect(rekeyed.rows.map((row) => row[2])).toEqual([
      "evt_keepkeepkeep",
      `evt_${sha16("title:b|date:2026-06-21|startTime:|location:|area:")}`,
      `evt_${sha16("title:c|date:2026-06-21|startTime:|location:|area:")}`,
    ]);
    expect([rekeyed.missingEventKeyCount, rekeyed.generatedEventKeyCount]).toEqual([1, 2]);
    expect(rows[2][2]).toBe("");
  });
});

test("a 2,000-row sheet parses with unique keys for every occurrence", () => {
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    Title: `Event number ${i}`,
    Date: i % 3 === 0 ? "21/06" : "2026-06-21",
    "Date To": i % 50 === 0 ? "2026-06-22" : "",
    "Start Time": "8pm",
    Location: i % 7 === 0 ? "near Oberkampf" : `Venue ${i}`,
    Area: i % 5 === 0 ? "" : "11e",
    Categories: "R&B / Afro House, Soulful house, Polka",
    "Host Country": "🇬🇧 / FR",
    Price: "£10 - £15",
    Notes: "x".repeat(200),
  }));
  const csv = sheet(rows);
  const result = parseOk(csv);
  expect(result.events).toHaveLength(2040);
  expect(new Set(result.events.map((e) => e.eventKey)).size).toBe(2040);
});
