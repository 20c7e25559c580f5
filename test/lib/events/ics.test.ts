// Calendar files (docs/public-pages.md, "Calendar files"), read back with ical.js: Paris wall-clock
// times, escaping, folding, CRLF and the feed.

import { describe, expect, test } from "bun:test";
import { liveEvent } from "../../helpers/events.ts";
import ICAL from "ical.js";
import {
  buildCalendarFeed,
  buildEventCalendar,
  calendarDescription,
  calendarEventTimes,
  calendarFileName,
  calendarLocation,
  escapeIcsText,
  foldIcsLine,
  icsUtcStamp,
  type EventCalendarOptions,
} from "../../../src/lib/events/ics.ts";
import { editionOf } from "../../../src/lib/events/editions.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";

const NOW = new Date("2026-06-01T08:09:10.123Z");
const OPTIONS: EventCalendarOptions = {
  siteName: "Finder",
  siteHost: "finder.example",
  shareUrl: "https://finder.example/event/evt_abcdefabcdef12/summer-party",
  now: NOW,
  edition: editionOf(2026),
};

/** A complete LiveEvent with plausible values; `extra` overrides any field. */
function makeEvent(extra: Partial<LiveEvent> = {}): LiveEvent {
  return liveEvent({
    eventKey: "evt_abcdefabcdef12",
    slug: "summer-party",
    eventName: "Summer Party",
    endTime: "23:30",
    location: "Le Comptoir",
    genres: ["house", "afro house"],
    nationality: ["FR"],
    venueTypes: ["indoor"],
    price: "15",
    priceValue: 15,
    age: "18+",
    ageValue: 18,
    link: "https://tickets.example/summer",
    category: "party",
    description: "Bring friends.",
    ...extra,
  });
}

/** Builds and parses a single-event calendar, registering its VTIMEZONE so times resolve to instants. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vtimezone = calendar.getFirstSubcomponent("vtimezone")!;
  ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone));
  const vevents = calendar.getAllSubcomponents("vevent");
  return { calendar, vevents, vevent: vevents[0], event: new ICAL.Event(vevents[0]) };
}

function build(extra: Partial<LiveEvent> = {}, options: Partial<EventCalendarOptions> = {}): string {
  const text = buildEventCalendar(makeEvent(extra), { ...OPTIONS, ...options });
  if (text === null) throw new Error("expected a calendar");
  return text;
}

function wallClock(vevent: ICAL.Component, name: "dtstart" | "dtend"): { tzid: unknown; value: string } {
  const property = vevent.getFirstProperty(name)!;
  return { tzid: property.getParameter("tzid"), value: (property.getFirstValue() as ICAL.Time).toString() };
}

function lines(text: string): string[] {
  expect(text.endsWith("\r\n")).toBe(true);
  return text.slice(0, -2).split("\r\n");
}

function assertWellFormed(text: string): void {
  // CRLF everywhere: no bare LF or CR.
  expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  const encoder = new TextEncoder();
  for (const line of lines(text)) {
    expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
    // A split surrogate pair would not survive a UTF-8 round trip.
    expect(new TextDecoder().decode(encoder.encode(line))).toBe(line);
    expect(line).not.toMatch(/[\ud800-\udbff]$/);
  }
}

describe("calendar structure", () => {
  test("VCALENDAR, VTIMEZONE and VEVENT properties", () => {
    const text = build();
    assertWellFormed(text);
    const { calendar, vevents, vevent } = parse(text);
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//Finder//Event Calendar//EN");
    expect(calendar.getFirstPropertyValue("calscale")).toBe("GREGORIAN");
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(calendar.getAllSubcomponents("vtimezone")).toHaveLength(1);
    expect(vevents).toHaveLength(1);
    expect(vevent.getFirstPropertyValue("uid")).toBe("evt_abcdefabcdef12@finder.example");
    expect(vevent.getFirstPropertyValue("url")).toBe(OPTIONS.shareUrl);
    expect(vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(vevent.getFirstPropertyValue("transp")).toBe("OPAQUE");
    expect(text).toContain("\r\nDTSTAMP:20260601T080910Z\r\n");
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
  });

  test("the VTIMEZONE names CET/CEST with the EU rules", () => {
    const { calendar } = parse(build());
    const tz = calendar.getFirstSubcomponent("vtimezone")!;
    expect(tz.getFirstPropertyValue("tzid")).toBe("Europe/Paris");
    const standard = tz.getFirstSubcomponent("standard")!;
    const daylight = tz.getFirstSubcomponent("daylight")!;
    expect(standard.getFirstPropertyValue("tzname")).toBe("CET");
    expect(standard.getFirstProperty("tzoffsetto")!.toICALString()).toBe("TZOFFSETTO:+0100");
    expect(standard.getFirstProperty("tzoffsetfrom")!.toICALString()).toBe("TZOFFSETFROM:+0200");
    expect(standard.getFirstProperty("rrule")!.toICALString()).toBe("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU");
    expect((standard.getFirstPropertyValue("dtstart") as ICAL.Time).toString()).toBe("1970-10-25T03:00:00");
    expect(daylight.getFirstPropertyValue("tzname")).toBe("CEST");
    expect(daylight.getFirstProperty("tzoffsetto")!.toICALString()).toBe("TZOFFSETTO:+0200");
    expect(daylight.getFirstProperty("rrule")!.toICALString()).toBe("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU");
    expect((daylight.getFirstPropertyValue("dtstart") as ICAL.Time).toString()).toBe("1970-03-29T02:00:00");
  });

  // Resolved through the file's own VTIMEZONE by ical.js: summer is UTC+2, winter UTC+1, switching on the last Sundays.
  const instants: [string, string, string][] = [
    ["2026-06-21", "20:00", "2026-06-21T18:00:00.000Z"],
    ["2026-12-31", "20:00", "2026-12-31T19:00:00.000Z"],
    ["2026-03-28", "12:00", "2026-03-28T11:00:00.000Z"],
    ["2026-03-29", "03:00", "2026-03-29T01:00:00.000Z"],
    ["2026-10-24", "12:00", "2026-10-24T10:00:00.000Z"],
    ["2026-10-25", "12:00", "2026-10-25T11:00:00.000Z"],
  ];
  for (const [date, time, utc] of instants) {
    test(`${date} ${time} Paris is ${utc}`, () => {
      const { event } = parse(build({ date, time, endTime: undefined }));
      expect(event.startDate.toJSDate().toISOString()).toBe(utc);
    });
  }
});

describe("DTSTART and DTEND: Paris wall clock, no conversion", () => {
  const cases: [string, Partial<LiveEvent>, string, string][] = [
    ["start and end", { time: "20:00", endTime: "23:30" }, "2026-06-21T20:00:00", "2026-06-21T23:30:00"],
    ["end after midnight", { time: "22:00", endTime: "04:00" }, "2026-06-21T22:00:00", "2026-06-22T04:00:00"],
    ["end equal to start is next day", { time: "22:00", endTime: "22:00" }, "2026-06-21T22:00:00", "2026-06-22T22:00:00"],
    ["no end: start + 3 h", { time: "14:15", endTime: undefined }, "2026-06-21T14:15:00", "2026-06-21T17:15:00"],
    ["no end: + 3 h crosses midnight", { time: "22:30", endTime: undefined }, "2026-06-21T22:30:00", "2026-06-22T01:30:00"],
    ["no end: exactly midnight", { time: "21:00", endTime: "TBC" }, "2026-06-21T21:00:00", "2026-06-22T00:00:00"],
    ["end of month rolls over", { date: "2026-06-30", time: "23:00", endTime: "02:00" }, "2026-06-30T23:00:00", "2026-07-01T02:00:00"],
    ["end of year rolls over", { date: "2026-12-31", time: "23:00", endTime: undefined }, "2026-12-31T23:00:00", "2027-01-01T02:00:00"],
    ["no valid time: 20:00–23:59", { time: "TBC", endTime: "02:00" }, "2026-06-21T20:00:00", "2026-06-21T23:59:00"],
    ["no time at all", { time: undefined, endTime: undefined }, "2026-06-21T20:00:00", "2026-06-21T23:59:00"],
  ];
  for (const [name, fields, start, end] of cases) {
    test(name, () => {
      const text = build(fields);
      assertWellFormed(text);
      const { vevent } = parse(text);
      expect(wallClock(vevent, "dtstart")).toEqual({ tzid: "Europe/Paris", value: start });
      expect(wallClock(vevent, "dtend")).toEqual({ tzid: "Europe/Paris", value: end });
      const compact = (iso: string) => iso.replace(/[-:]/g, "");
      expect(text).toContain(`\r\nDTSTART;TZID=Europe/Paris:${compact(start)}\r\n`);
      expect(text).toContain(`\r\nDTEND;TZID=Europe/Paris:${compact(end)}\r\n`);
    });
  }

  test("calendarEventTimes without a valid date", () => {
    expect(calendarEventTimes({ date: "", time: "20:00", endTime: undefined })).toBeNull();
  });
});

describe("text escaping round-trips through ical.js", () => {
  const tricky = "Back\\slash, comma; semi\nnew line\r\nCRLF – Fête à l'Opéra 🎉🇫🇷 naïve";
  test("summary, description and location", () => {
    const text = build({ eventName: tricky, description: tricky, location: tricky });
    assertWellFormed(text);
    const { event } = parse(text);
    const normalised = tricky.replace(/\r\n/g, "\n");
    expect(event.summary).toBe(normalised);
    expect(event.description.startsWith(`${normalised}\n\n`)).toBe(true);
    expect(event.location).toBe(`${normalised}, 11th arrondissement, Paris, France`);
  });

  test("escapeIcsText", () => {
    const cases: [string, string][] = [
      ["a\\b", "a\\\\b"],
      ["a,b;c", "a\\,b\\;c"],
      ["a\nb\r\nc\rd", "a\\nb\\nc\\nd"],
      ["tab\tkept, bell\u0007 gone", "tab\tkept\\, bell gone"],
      ["\\n literally", "\\\\n literally"],
    ];
    for (const [input, output] of cases) expect(escapeIcsText(input)).toBe(output);
  });

  test("a long name of emoji and accents folds without splitting a character", () => {
    const name = "Fête 🎶".repeat(40) + "é".repeat(100);
    const text = build({ eventName: name, description: "ü".repeat(300) });
    assertWellFormed(text);
    const { event } = parse(text);
    expect(event.summary).toBe(name);
  });
});

describe("foldIcsLine", () => {
  const encoder = new TextEncoder();
  const cases: [string, string][] = [
    ["short", "SUMMARY:hello"],
    ["exactly 75", `SUMMARY:${"x".repeat(67)}`],
    ["76", `SUMMARY:${"x".repeat(68)}`],
    ["two-byte", `SUMMARY:${"é".repeat(100)}`],
    ["three-byte", `SUMMARY:${"€".repeat(100)}`],
    ["four-byte", `SUMMARY:${"😀".repeat(100)}`],
    ["mixed", `DESCRIPTION:${"aé€😀".repeat(50)}`],
  ];
  for (const [name, line] of cases) {
    test(name, () => {
      const folded = foldIcsLine(line);
      const pieces = folded.split("\r\n");
      for (const [i, piece] of pieces.entries()) {
        expect(encoder.encode(piece).length).toBeLessThanOrEqual(75);
        if (i > 0) expect(piece.startsWith(" ")).toBe(true);
        expect(piece).not.toMatch(/[\ud800-\udbff]$/);
      }
      // Unfolding restores the line (RFC 5545, section 3.1).
      expect(folded.replace(/\r\n /g, "")).toBe(line);
      if (encoder.encode(line).length <= 75) expect(folded).toBe(line);
      else expect(encoder.encode(pieces[0]).length).toBeGreaterThan(71);
    });
  }
});

describe("DESCRIPTION", () => {
  test("the full list of lines", () => {
    expect(calendarDescription(makeEvent(), "Finder")).toBe(
      [
        "Bring friends.",
        "",
        "Music: House, Afro House",
        "Category: Party",
        "Price: €15",
        "Age: 18+",
        "Tickets: https://tickets.example/summer",
        "Added via Finder",
      ].join("\n"),
    );
  });

  test("optional lines left out, unverified notice added", () => {
    const event = makeEvent({ description: "  ", genres: [], category: null, price: "", priceValue: null, age: "", ageValue: null, link: null, verified: false });
    expect(calendarDescription(event, "Finder")).toBe(
      ["Music: TBC", "Price: TBA", "Unverified event - details may change", "Added via Finder"].join("\n"),
    );
  });

  const prices: [string, number | null, string][] = [
    ["€15", 15, "Price: €15"],
    ["15€", 15, "Price: €15"],
    ["15", 15, "Price: €15"],
    ["£10", 11.7, "Price: £10"],
    ["Free", 0, "Price: Free"],
    ["0", 0, "Price: Free"],
    ["10-20 EUR", 10, "Price: €10 – €20"],
    ["TBC", null, "Price: TBA"],
  ];
  for (const [price, priceValue, line] of prices) {
    test(`price "${price}" → ${line}`, () => {
      const description = calendarDescription(makeEvent({ price, priceValue }), "Finder");
      expect(description.split("\n")).toContain(line);
      expect(description).not.toContain("€€");
    });
  }

  test("age labels", () => {
    expect(calendarDescription(makeEvent({ age: "All ages", ageValue: 0 }), "F")).toContain("Age: All ages");
    expect(calendarDescription(makeEvent({ age: "21", ageValue: 21 }), "F")).toContain("Age: 21+");
  });
});

describe("LOCATION", () => {
  const cases: [Partial<LiveEvent>, string][] = [
    [{ location: "Le Comptoir", arrondissement: 1 }, "Le Comptoir, 1st arrondissement, Paris, France"],
    [{ location: "Le Comptoir", arrondissement: "unknown" }, "Le Comptoir, Paris, France"],
    [{ location: "TBA", arrondissement: 11 }, "11th arrondissement, Paris, France"],
    [{ location: "Location TBC", arrondissement: "unknown" }, "Paris, France"],
    [{ location: undefined, arrondissement: "unknown" }, "Paris, France"],
  ];
  for (const [fields, expected] of cases) {
    test(expected, () => {
      expect(calendarLocation(makeEvent(fields))).toBe(expected);
      expect(parse(build(fields)).event.location).toBe(expected);
    });
  }
});

describe("no valid date → no file", () => {
  for (const date of ["", "2026-02-30", "21/06/2026"]) {
    test(JSON.stringify(date), () => {
      expect(buildEventCalendar(makeEvent({ date, day: "tbc" }), OPTIONS)).toBeNull();
      expect(calendarFileName(makeEvent({ date }))).toBeNull();
    });
  }
});

describe("calendarFileName", () => {
  test("slug and ISO date", () => {
    expect(calendarFileName(makeEvent())).toBe("summer-party-2026-06-21.ics");
  });
  test("a broken slug is rebuilt from the name", () => {
    expect(calendarFileName(makeEvent({ slug: "../x y", eventName: "Fête de Nuit" }))).toBe("fete-de-nuit-2026-06-21.ics");
  });
});

describe("icsUtcStamp", () => {
  test("UTC with Z", () => {
    expect(icsUtcStamp(new Date("2026-01-02T03:04:05Z"))).toBe("20260102T030405Z");
  });
});

describe("buildCalendarFeed", () => {
  test("one VCALENDAR, one VTIMEZONE, one VEVENT per dated event, X-WR-CALNAME", () => {
    const events = [
      makeEvent({ eventKey: "evt_aaaaaaaaaaaa", eventName: "A", time: "23:00", endTime: undefined }),
      makeEvent({ eventKey: "evt_bbbbbbbbbbbb", eventName: "Undated", date: "", day: "tbc" }),
      makeEvent({ eventKey: "evt_cccccccccccc", eventName: "C, with comma", date: "2026-06-20", time: undefined }),
    ];
    const text = buildCalendarFeed(events, {
      siteName: "Finder",
      siteHost: "finder.example",
      now: NOW,
      edition: editionOf(2026),
      calendarName: "Fête de la Musique, Paris",
      shareUrlFor: (event) => `https://finder.example/event/${event.eventKey}/${event.slug}`,
    });
    assertWellFormed(text);
    const { calendar, vevents } = parse(text);
    // X- properties default to TEXT (RFC 5545, section 3.8.8.2), so the comma is escaped; ical.js
    // keeps unknown values raw.
    expect(text).toContain("\r\nX-WR-CALNAME:Fête de la Musique\\, Paris\r\n");
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Fête de la Musique\\, Paris");
    expect(calendar.getAllSubcomponents("vtimezone")).toHaveLength(1);
    expect(vevents.map((v) => v.getFirstPropertyValue("uid"))).toEqual([
      "evt_aaaaaaaaaaaa@finder.example",
      "evt_cccccccccccc@finder.example",
    ]);
    expect(vevents.map((v) => new ICAL.Event(v).summary)).toEqual(["A", "C, with comma"]);
    expect(wallClock(vevents[0], "dtend").value).toBe("2026-06-22T02:00:00");
    expect(wallClock(vevents[1], "dtstart").value).toBe("2026-06-20T20:00:00");
    expect(vevents[1].getFirstPropertyValue("url")).toBe("https://finder.example/event/evt_cccccccccccc/summer-party");
    expect(text.match(/BEGIN:VCALENDAR/g)).toHaveLength(1);
  });

  test("an empty feed is still a valid calendar named after the site", () => {
    const text = buildCalendarFeed([], { siteName: "Finder", siteHost: "h", now: NOW, edition: editionOf(2026), shareUrlFor: () => "" });
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Finder");
    expect(calendar.getAllSubcomponents("vevent")).toHaveLength(0);
  });
});
