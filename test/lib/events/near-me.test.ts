// "Near me": what the panel offers at a clock reading (today's events still to see during the
// festival, the chosen dates, everything off season) and the grouping per venue (each venue its own
// name, even two venues at one estimated point; events by start, cancelled last).

import { describe, expect, test } from "bun:test";
import { isEstimatedPosition, nearMeEvents, nearVenues, venueOf } from "../../../src/lib/events/near-me.ts";
import { arrondissementCentre } from "../../../src/lib/sheet/arrondissement.ts";
import { liveEvent } from "../../helpers/events.ts";

const AT_2130 = new Date("2026-06-21T19:30:00Z"); // 21:30 Paris, Sunday 21 June
const centre10 = arrondissementCentre(10);
const pinned = { lat: 48.8702, lng: 2.365 };

const events = [
  liveEvent({ eventKey: "evt_on_now", eventName: "On now", time: "20:00", endTime: "23:00", location: "Quai de Jemmapes", arrondissement: 10, coordinates: pinned }),
  liveEvent({ eventKey: "evt_next", eventName: "Next", time: "22:00", endTime: "01:00", location: "Quai de Jemmapes", arrondissement: 10, coordinates: pinned }),
  liveEvent({ eventKey: "evt_ended", eventName: "Ended at seven", time: "16:00", endTime: "19:00", location: "Le Comptoir", arrondissement: 10, coordinates: { ...centre10 } }),
  liveEvent({ eventKey: "evt_monday", eventName: "Monday", date: "2026-06-22", time: "20:00", endTime: "22:00", location: "Quai de Jemmapes", arrondissement: 10, coordinates: pinned }),
  liveEvent({ eventKey: "evt_estimate_a", eventName: "Estimate A", time: "21:00", endTime: "23:30", location: "Chez Alice", arrondissement: 10, coordinates: { ...centre10 } }),
  liveEvent({ eventKey: "evt_estimate_b", eventName: "Estimate B", time: "23:00", endTime: "02:00", location: "Chez Bob", arrondissement: 10, coordinates: { ...centre10 } }),
  liveEvent({ eventKey: "evt_no_place", eventName: "No coordinates", time: "22:00", endTime: "23:00", location: "Somewhere", arrondissement: 10, coordinates: undefined }),
];

describe("what near me offers", () => {
  test("during the festival without dates: today's events on now or later, never ended ones nor other days", () => {
    const { scope, events: offered } = nearMeEvents(events, { dateFrom: null, dateTo: null }, AT_2130, true);
    expect(scope).toBe("today");
    expect(offered.map((e) => e.eventKey)).toEqual(["evt_on_now", "evt_next", "evt_estimate_a", "evt_estimate_b", "evt_no_place"]);
  });

  test("with dates chosen: those dates' events that have not ended (another day when asked for)", () => {
    const { scope, events: offered } = nearMeEvents(events.filter((e) => e.date === "2026-06-22"), { dateFrom: "2026-06-22", dateTo: "2026-06-22" }, AT_2130, true);
    expect(scope).toBe("dates");
    expect(offered.map((e) => e.eventKey)).toEqual(["evt_monday"]);
  });

  test("off season: every filtered event, and the scope says so", () => {
    const { scope, events: offered } = nearMeEvents(events, { dateFrom: null, dateTo: null }, new Date("2026-11-27T12:00:00Z"), false);
    expect(scope).toBe("offSeason");
    expect(offered).toHaveLength(events.length);
  });
});

describe("venues", () => {
  test("an arrondissement centre is an estimate; a pin is not", () => {
    expect(isEstimatedPosition(centre10, 10)).toBe(true);
    expect(isEstimatedPosition(pinned, 10)).toBe(false);
    expect(venueOf(events[0]!)).toMatchObject({ id: "quai_de_jemmapes_10", name: "Quai de Jemmapes", estimated: false });
  });

  test("events are grouped per venue by name, so two venues at one estimated point keep their own names", () => {
    const offered = nearMeEvents(events, { dateFrom: null, dateTo: null }, AT_2130, true).events;
    const venues = nearVenues(offered);
    expect(venues.map((v) => v.name)).toEqual(["Quai de Jemmapes", "Chez Alice", "Chez Bob"]);
    expect(venues.map((v) => v.estimated)).toEqual([false, true, true]);
    expect(venues[1]!.lat).toBe(venues[2]!.lat);
    expect(venues[0]!.events.map((e) => e.eventKey)).toEqual(["evt_on_now", "evt_next"]);
  });

  test("inside a venue events go by start, cancelled last; venues by their first start", () => {
    const at = (key: string, time: string, status: "scheduled" | "cancelled" = "scheduled", location = "Here") =>
      liveEvent({ eventKey: key, eventName: key, time, endTime: "23:59", status, location, arrondissement: 11, coordinates: { lat: 48.86, lng: 2.37 } });
    const venues = nearVenues([at("late", "22:00"), at("cancelled", "19:00", "cancelled"), at("early", "20:00"), at("elsewhere", "19:30", "scheduled", "There")]);
    expect(venues.map((v) => v.name)).toEqual(["Here", "There"]);
    expect(venues.find((v) => v.name === "Here")!.events.map((e) => e.eventKey)).toEqual(["early", "late", "cancelled"]);
  });
});
