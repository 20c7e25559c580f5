import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { type TestContext, useTestApp, withTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { seedStoreIfEmpty } from "../../src/lib/events/pipeline.ts";
import { HOMEPAGE } from "../../src/lib/serving/invalidation.ts";

const ctx = useTestApp();

async function getJson(c: TestContext, path: string) {
  const res = await c.request(path);
  return { res, body: (await res.json()) as any };
}

describe("GET /api/events (test mode)", () => {
  test("lists every fixture event with exactly the event record fields", async () => {
    const { res, body } = await getJson(ctx, "/api/events");
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.count).toBe(14);
    expect(body.events.length).toBe(14);
    const canal = body.events[0];
    expect(canal).toMatchObject({
      eventKey: "evt_fixture000001",
      slug: "canal-amapiano-sunset",
      eventName: "Canal Amapiano Sunset",
      date: "2026-06-21",
      day: "sunday",
      time: "18:00",
      endTime: "23:00",
      location: "Quai de Valmy",
      arrondissement: 10,
      genres: ["amapiano", "afrobeats"],
      nationality: ["UK", "FR"],
      venueTypes: ["outdoor"],
      priceValue: 0,
      curated: true,
      type: "Day Party",
      category: "party",
      verified: true,
      calendarSyncCount: 0,
      isFeatured: false,
      isPromoted: false,
    });
    for (const key of ["eventKey", "slug", "eventName", "date", "day", "arrondissement", "genres", "nationality", "venueTypes", "price", "priceValue", "age", "ageValue", "link", "curated", "type", "category", "tags", "description", "seriesKey", "occurrenceIndex", "occurrenceCount", "dateRangeStart", "dateRangeEnd", "verified", "isFeatured", "featuredAt", "featuredEndsAt", "isPromoted", "promotedAt", "promotedEndsAt", "calendarSyncCount"]) {
      expect(canal).toHaveProperty(key);
    }
  });

  test("filters and search use the homepage rules", async () => {
    expect((await getJson(ctx, "/api/events?arr=11")).body.events.map((e: any) => e.eventKey)).toEqual(["evt_fixture000005", "evt_fixture000011"]);
    expect((await getJson(ctx, "/api/events?dn=night&arr=11")).body.count).toBe(2);
    expect((await getJson(ctx, "/api/events?g=r%26b")).body.events.map((e: any) => e.eventKey)).toEqual(["evt_fixture000003"]);
    expect((await getJson(ctx, "/api/events?q=canal")).body.count).toBe(1);
    expect((await getJson(ctx, "/api/events?pick=1")).body.count).toBe(6); // 4 curated rows, the garden series has 3 days
    expect((await getJson(ctx, "/api/events?pr=0:0")).body.events.every((e: any) => e.priceValue === 0)).toBe(true);
  });

  test("garbage parameters are ignored or clamped, never a 5xx", async () => {
    for (const q of ["pr=abc", "ag=1:999", "arr=0,21,x", "g=%3Cscript%3E", `q=${"x".repeat(5000)}`, "df=2026-13-45&dt=banana", "nat=ZZ", "dn=noon", "pick=maybe", "vt=underwater", "in=sideways", "%E0%A4%A=1"]) {
      const res = await ctx.request(`/api/events?${q}`);
      expect(res.status).toBe(200);
    }
  });

  test("one event by key (case-insensitive); unknown → 404 JSON", async () => {
    const { body } = await getJson(ctx, "/api/events/EVT_FIXTURE000004");
    expect(body.event.eventName).toBe("Pigalle Hip Hop Cypher");
    const missing = await getJson(ctx, "/api/events/evt_doesnotexist000");
    expect(missing.res.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: "Event not found" });
    expect((await ctx.request(`/api/events/${"a".repeat(3000)}`)).status).toBe(404);
  });
});

describe("calendar files", () => {
  test("an event's .ics parses with an iCalendar library: Paris wall-clock times, escaping, UID", async () => {
    const res = await ctx.request("/api/events/evt_fixture000008/calendar.ics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="latin-quarter-reggaeton-2026-06-20.ics"');
    const text = await res.text();
    expect(text.includes("\r\n")).toBe(true);
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe("evt_fixture000008@finder.test");
    expect(event.summary).toBe("Latin Quarter Reggaeton");
    expect(event.startDate.toString()).toBe("2026-06-20T21:00:00");
    expect(event.endDate.toString()).toBe("2026-06-21T02:00:00");
    expect(vevent.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Paris");
    expect(event.location).toBe("Le Caveau, rue de la Huchette, 5th arrondissement, Paris, France");
    expect(event.description).toContain('Reggaeton, baile funk and "perreo" classics.');
    expect(vevent.getFirstPropertyValue("url")).toBe("http://finder.test/event/evt_fixture000008/latin-quarter-reggaeton");
  });

  test("an event without a valid date has no calendar file", async () => {
    await withTestApp({ env: { DATA_MODE: "remote" } }, async (remote) => {
      await saveStoreSheet(remote.deps.db, "Title,Date\nA,2026-06-21\nB,2026-06-21\nC,2026-06-21\nD,2026-06-21\nNo date yet,soon\n", { updatedBy: "admin-upload", origin: "manual", now: remote.deps.now() });
      const { body } = await getJson(remote, "/api/events");
      const undated = body.events.find((e: any) => e.eventName === "No date yet");
      expect(undated.date).toBe("");
      const res = await remote.request(`/api/events/${undated.eventKey}/calendar.ics`);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ success: false, error: "Add an unambiguous date to enable calendar export." });
    });
  });

  test("the feed holds one VEVENT per dated event", async () => {
    const res = await ctx.request("/calendar.ics");
    expect(res.status).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    expect(calendar.getAllSubcomponents("vevent").length).toBe(14);
    expect(calendar.getAllSubcomponents("vtimezone").length).toBe(1);
  });

  test.each([["g=dancehall&arr=11"], ["arr=11"], ["q=garage"], ["g=house"]])(
    "a filtered feed (?%s) holds exactly the events the same filter shows on / and in /api/events",
    async (query) => {
      const res = await ctx.request(`/calendar.ics?${query}`);
      expect(res.status).toBe(200);
      const calendar = new ICAL.Component(ICAL.parse(await res.text()));
      const feedKeys = calendar.getAllSubcomponents("vevent").map((v) => String(v.getFirstPropertyValue("uid")).split("@")[0]).sort();
      let page = await ctx.request(`/?${query}`);
      if (page.status >= 300 && page.status < 400) page = await ctx.request(page.headers.get("location")!); // the canonical order
      expect(page.status).toBe(200);
      const home = await page.text();
      const homeKeys = [...new Set([...home.matchAll(/data-event-key="([^"]+)"/g)].map((m) => m[1]))].sort();
      const { body } = await getJson(ctx, `/api/events?${query}`);
      expect(feedKeys.length).toBeGreaterThan(0);
      expect(feedKeys).toEqual(homeKeys);
      expect(feedKeys).toEqual(body.events.map((e: { eventKey: string }) => e.eventKey).sort());
      expect(String(calendar.getFirstPropertyValue("x-wr-calname"))).toContain("Fête de la Musique · ");
      // The results offer the same feed to subscribe to (webcal) and to download.
      expect(home).toContain("Subscribe to these events");
      const webcal = home.match(/href="(webcal:\/\/[^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
      expect(webcal).toStartWith("webcal://finder.test/calendar.ics?");
      const offeredUrl = new URL(webcal!.replace("webcal:", "http:"));
      const offered = new ICAL.Component(ICAL.parse(await (await ctx.request(offeredUrl.pathname + offeredUrl.search)).text()));
      expect(offered.getAllSubcomponents("vevent").map((v) => String(v.getFirstPropertyValue("uid")).split("@")[0]).sort()).toEqual(feedKeys);
    },
  );

  test("the filtered feed is cached per canonical query: parameter order does not matter", async () => {
    await ctx.request("/calendar.ics?arr=11&g=dancehall");
    const again = await ctx.request("/calendar.ics?g=dancehall&arr=11");
    expect(again.headers.get("x-cache")).toBe("HIT");
  });
});

describe("the server's own hit path", () => {
  test("over a real socket a fresh cached list (and /) answers like the app's route: same status, headers and body; a new filter misses", async () => {
    await withTestApp({ keepData: true }, async (served) => {
      const comparable = (res: Response) => {
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          if (name !== "date" && name !== "content-length") headers[name] = value;
        });
        return headers;
      };
      const origin = served.listen();
      for (const path of ["/api/events?arr=11&g=dancehall", "/"]) {
        const init = { headers: { "accept-encoding": "br" }, decompress: false } as RequestInit;
        const miss = await fetch(`${origin}${path}`, init);
        expect(miss.headers.get("x-cache"), path).toBe("MISS");
        await miss.arrayBuffer();
        // The same entry through the app's route (app.handle never takes the server's route) and
        // through the socket, where the server's route answers before Elysia.
        const routed = await served.app.handle(new Request(`${origin}${path}`, { headers: { "accept-encoding": "br" } }));
        const hit = await fetch(`${origin}${path}`, init);
        expect(hit.status, path).toBe(routed.status);
        expect(comparable(hit), path).toEqual(comparable(routed));
        expect(hit.headers.get("x-cache"), path).toBe("HIT");
        expect(new Uint8Array(await hit.arrayBuffer()), path).toEqual(new Uint8Array(await routed.arrayBuffer()));
      }
      // Another parameter order is the same canonical query: a hit; another filter is not.
      expect((await fetch(`${origin}/api/events?g=dancehall&arr=11`)).headers.get("x-cache")).toBe("HIT");
      const other = await fetch(`${origin}/api/events?arr=12`);
      expect(other.headers.get("x-cache")).toBe("MISS");
      expect(((await other.json()) as any).events.every((e: any) => e.arrondissement === 12)).toBe(true);
    });
  });
});

describe("data modes end to end", () => {
  test("local mode serves data/events.csv", async () => {
    await withTestApp({ env: { DATA_MODE: "local" } }, async (local) => {
      const { body } = await getJson(local, "/api/events");
      expect(body.count).toBeGreaterThan(70);
    });
  });

  test("remote mode serves the store, then falls back when the store is invalid and says where it came from", async () => {
    await withTestApp({ env: { DATA_MODE: "remote" } }, async (remote) => {
      await seedStoreIfEmpty(remote.deps);
      await saveStoreSheet(remote.deps.db, "Title,Date\nOnly store event,2026-06-21\n", { updatedBy: "admin-upload", origin: "manual", now: remote.deps.now() });
      expect((await getJson(remote, "/api/events")).body.events.map((e: any) => e.eventName)).toEqual(["Only store event"]);
      expect(remote.deps.events.status().source).toBe("store");
      await saveStoreSheet(remote.deps.db, "Title,Date\nA,x\nB,y\n", { updatedBy: "admin-upload", origin: "manual", now: remote.deps.now() });
      // Served from the render cache until a homepage revalidation drops it.
      const cached = await getJson(remote, "/api/events");
      expect(cached.res.headers.get("x-cache")).toBe("HIT");
      expect(cached.body.count).toBe(1);
      await remote.deps.invalidation.invalidate(HOMEPAGE);
      const fallback = await getJson(remote, "/api/events");
      expect(fallback.body.count).toBeGreaterThan(70);
      expect(remote.deps.events.status().source).toBe("local");
    });
  });

  test("every source failing answers 503 without internals", async () => {
    await withTestApp({ env: { DATA_MODE: "local", LOCAL_EVENTS_CSV: "/nonexistent/secret-path.csv" } }, async (broken) => {
      const res = await broken.request("/api/events");
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ success: false, error: "Events are unavailable right now." });
      expect(text).not.toContain("secret-path");
    });
  });
});
