// The homepage through app.handle: cache states, invalidation, variants, htmx fragments, escaping,
// event-page meta, the share route, bad input and the fallback notice.

import { beforeAll, describe, expect, test } from "bun:test";
import { type TestContext, useTestApp, withTestApp, HTMX_HEADERS as HTMX } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { engagementInteractions, spotlightSchedule } from "../../src/lib/db/schema/index.ts";
import { saveBannerSettings } from "../../src/lib/site/banner.ts";
import { homeCacheKey } from "../../src/pages/home/fast/home-request.ts";
import { translate } from "../../src/lib/i18n/index.ts";

const FALLBACK_NOTICE = translate("en", "home.fallbackNotice");
const UNAVAILABLE_TEXT = translate("en", "home.unavailable");

const HEADER = "Title,Curated,Date,Start Time,End Time,Location,Area,Price,Categories,Primary URL,Setting,Notes,Event Key";

function sheet(rows: string[]): string {
  return [HEADER, ...rows].join("\n") + "\n";
}

async function saveSheet(ctx: TestContext, csv: string) {
  const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
  if (!saved.ok) throw new Error(saved.error);
}

async function get(ctx: TestContext, path: string, headers: Record<string, string> = {}) {
  const res = await ctx.request(path, { headers });
  return { res, body: await res.text(), cache: res.headers.get("x-cache") };
}

describe("homepage in test mode", () => {
  const ctx = useTestApp();

  test("the full page: landmarks, intro texts, every fixture event, count, filters, cache headers", async () => {
    const { res, body } = await get(ctx, "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Browsers revalidate every time; only shared caches may serve a copy while fetching the next.
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=10, stale-if-error=86400");
    expect(res.headers.get("cdn-cache-control")).toBe("public, max-age=10, stale-while-revalidate=60, stale-if-error=86400");
    expect(res.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    expect(body).toStartWith("<!doctype html><html lang=\"en\">");
    for (const text of ["Paris · Fête de la Musique", "Discover events across the city", "14 available", "Spotlight", "Get noticed by promoting your event →", "Browse All 14 Events", "All Events", "Hosting something? Submit your event →", "Date &amp; Times", "Location", "Music &amp; Culture", "Preferences", "Show only curated picks", "Day (until 22:00)", "Night (after 22:00)"]) {
      expect(body).toContain(text);
    }
    expect(body).toContain('<main id="main"');
    expect(body).toContain('<header class="site-header"');
    expect(body).toContain('<footer class="site-footer"');
    expect(body).not.toContain(FALLBACK_NOTICE);
    // Every event once in the list, in homepage (sheet) order.
    const list = body.slice(body.indexOf('id="results"'));
    const keys = [...list.matchAll(/<article class="[^"]*" data-event-key="([^"]+)"/g)].map((m) => m[1]);
    expect(keys.length).toBe(14);
    expect(keys[0]).toBe("evt_fixture000001");
    // Ten filter groups as a plain GET form.
    expect(body).toContain('<form id="filters" class="filters" method="get" action="/"');
    for (const name of ['name="df"', 'name="dt"', 'name="dn"', 'name="arr"', 'name="g"', 'name="nat"', 'name="vt"', 'name="in"', 'name="pick"', 'name="pr_min"', 'name="ag_max"', 'name="q"']) {
      expect(body).toContain(name);
    }
    expect(body).toContain('hx-trigger="submit, change, input changed delay:500ms from:#search-q"');
    expect(body).toContain('hx-push-url="true"');
  });

  test("cards: area badge, time and date labels, first two genres, Day k of n, links to the share URL with htmx", async () => {
    const { body } = await get(ctx, "/?q=batignolles");
    expect(body).toContain("Day 2 of 3");
    expect(body).toContain("17e");
    expect(body).toContain("14:00–22:00");
    expect(body).toContain("Sat 20 June");
    const canal = (await get(ctx, "/?q=canal")).body;
    expect(canal).toContain('href="/event/evt_fixture000001/canal-amapiano-sunset" hx-get="/?event=evt_fixture000001&slug=canal-amapiano-sunset"');
    expect(canal).toContain(">Amapiano<");
    expect(canal).toContain(">Afrobeats<");
    expect(canal).toContain('class="tag tag-free">Free<');
  });

  test("HIT after MISS; variants by canonical filter query share one entry", async () => {
    const first = await get(ctx, "/?g=house");
    expect(first.cache).toBe("MISS");
    expect(first.body).toContain("2 found"); // House, and Techno (an alias of house)
    const second = await get(ctx, "/?g=house");
    expect(second.cache).toBe("HIT");
    expect(second.body).toBe(first.body);
    // Another filter is another variant.
    const other = await get(ctx, "/?arr=11");
    expect(other.cache).toBe("MISS");
    expect(other.body).toContain("2 found");
    expect(other.body).not.toBe(first.body);
    // A non-canonical spelling of the same state redirects to the canonical URL.
    const messy = await ctx.request("/?arr=11&q=&df=&dt=&pr_min=0&pr_max=150&ag_min=18&ag_max=25&utm_source=x");
    expect(messy.status).toBe(302);
    expect(messy.headers.get("location")).toBe("/?arr=11");
    expect(messy.headers.get("cache-control")).toBe("no-store");
    expect((await ctx.request("/?arr=11,3")).headers.get("location")).toBe("/?arr=3%2C11");
    expect((await get(ctx, "/?arr=3%2C11")).res.status).toBe(200);
  });

  test("form slider ends become pr/ag; the list narrows with two filters and the search", async () => {
    const res = await ctx.request("/?pr_min=0&pr_max=0");
    expect(res.headers.get("location")).toBe("/?pr=0%3A0");
    const free = await get(ctx, "/?pr=0%3A0");
    expect(free.body).toContain("4 found");
    const narrowed = await get(ctx, "/?dn=night&arr=11&q=garage");
    expect(narrowed.body).toContain("1 found");
    expect(narrowed.body).toContain("Oberkampf UK Garage");
    expect(narrowed.body).toContain(">Oberkampf UK Garage</a>");
    expect(narrowed.body).not.toContain(">Bastille Dancehall Night</a>");
    // Chips with remove links and Clear all (keeping the search).
    expect(narrowed.body).toContain('href="/?arr=11&q=garage"');
    expect(narrowed.body).toContain('data-track-clear="day_night" data-track-value="night"');
    expect(narrowed.body).toContain('href="/?q=garage" hx-get="/?q=garage"');
    expect(narrowed.body).toContain(">Clear all<");
  });

  test("htmx gets the results fragment (with out-of-band pieces and the canonical push URL); Vary keeps them apart", async () => {
    const page = await get(ctx, "/?g=house");
    const fragment = await get(ctx, "/?g=house", HTMX);
    expect(fragment.res.status).toBe(200);
    expect(fragment.cache).toBe("MISS");
    expect(fragment.res.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    expect(fragment.res.headers.get("hx-push-url")).toBe("/?g=house");
    expect(fragment.body).not.toContain("<html");
    expect(fragment.body).toStartWith('<section id="results"');
    expect(fragment.body).toContain('data-query="g=house"');
    for (const id of ['id="result-count"', 'id="spotlight"', 'id="stats"', 'id="map-areas"']) expect(fragment.body).toContain(id);
    expect(fragment.body).toContain('hx-swap-oob="innerHTML"');
    expect(fragment.body).toContain("2 found");
    expect(page.body).toContain("<html");
    expect((await get(ctx, "/?g=house", HTMX)).cache).toBe("HIT");
    // The form sends raw slider ends with htmx: no redirect, the canonical URL is pushed.
    const raw = await get(ctx, "/?g=house&q=&pr_min=0&pr_max=150&in=", HTMX);
    expect(raw.res.status).toBe(200);
    expect(raw.cache).toBe("HIT");
    expect(raw.res.headers.get("hx-push-url")).toBe("/?g=house");
    const all = await get(ctx, "/", HTMX);
    expect(all.res.headers.get("hx-push-url")).toBe("/");
  });

  test("responses are precompressed by Accept-Encoding", async () => {
    const br = await ctx.request("/", { headers: { "accept-encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await ctx.request("/", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
  });

  test("?event= opens the modal server-side with the event's title, description, canonical, OG/Twitter tags and JSON-LD", async () => {
    const { res, body } = await get(ctx, "/?event=evt_fixture000001&slug=canal-amapiano-sunset");
    expect(res.status).toBe(200);
    expect(body).toContain("<title>Canal Amapiano Sunset | finder</title>");
    expect(body).toContain('<meta name="description" content="10th arrondissement · Sun 21 June · 18:00–23:00 · Quai de Valmy · Free"/>');
    expect(body).toContain('<link rel="canonical" href="http://finder.test/?event=evt_fixture000001&amp;slug=canal-amapiano-sunset"/>');
    expect(body).toContain('<meta property="og:title" content="Canal Amapiano Sunset | finder"/>');
    expect(body).toContain('<meta property="og:image" content="http://finder.test/api/og?variant=event-modal&amp;title=Canal+Amapiano+Sunset&amp;date=Sun+21+June');
    expect(body).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(body)![1]);
    expect(ld).toMatchObject({ "@context": "https://schema.org", "@type": "Event", name: "Canal Amapiano Sunset", startDate: "2026-06-21T18:00:00+02:00", endDate: "2026-06-21T23:00:00+02:00", isAccessibleForFree: true });
    expect(ld.location.address.postalCode).toBe("75010");
    // The dialog, open, with its contents and actions.
    expect(body).toContain('<dialog id="event-modal" class="modal" aria-modal="true" aria-labelledby="event-modal-title" open');
    for (const text of ["Curated Pick", "Venue Type", "Outdoor", "10th arrondissement", "Open map", "Verified event", "View on tickets.canal.example", "Add to Calendar", "This information is preliminary and may change.", "Sunset session by the water."]) {
      expect(body).toContain(text);
    }
    expect(body).toContain('href="/api/events/evt_fixture000001/calendar.ics" download="" data-track="calendar_sync" data-track-source="modal_calendar_sync"');
    expect(body).toContain('data-track="outbound_click" data-track-source="modal_primary_link"');
    expect(body).toContain('data-share-url="http://finder.test/event/evt_fixture000001/canal-amapiano-sunset"');
    expect(body).toContain("https://www.google.com/maps/search/?api=1&query=Quai+de+Valmy");
    // Keys are case-insensitive; the slug is decorative (the script corrects it).
    expect((await ctx.request("/?event=EVT_FIXTURE000001&slug=wrong")).headers.get("location")).toBe("/?event=evt_fixture000001&slug=wrong");
    expect((await get(ctx, "/?event=evt_fixture000001&slug=wrong")).body).toContain("<title>Canal Amapiano Sunset | finder</title>");
  });

  test("modal details: link coming soon, location TBA, disabled calendar for an event without a date", async () => {
    const { body } = await get(ctx, "/?event=evt_fixture000007&slug=mystery-warehouse-party");
    expect(body).toContain("Link Coming Soon");
    expect(body).toContain("Location TBA");
    expect(body).toContain("Unverified - details may change");
    const plain = await get(ctx, "/?event=evt_fixture000004");
    expect(plain.body).toContain("Link Coming Soon");
  });

  test("htmx with ?event= gets only the dialog; an unknown key gets the 'no longer listed' dialog; the page ignores it", async () => {
    const fragment = await get(ctx, "/?event=evt_fixture000003&slug=marais-jazz-funk-brunch", HTMX);
    expect(fragment.body).toStartWith('<dialog id="event-modal"');
    expect(fragment.body).not.toContain(" open");
    expect(fragment.body).toContain("Marais Jazz-Funk Brunch");
    expect(fragment.res.headers.get("vary")).toBe("Accept-Encoding, HX-Request");
    const missing = await get(ctx, "/?event=evt_doesnotexist0000", HTMX);
    expect(missing.body).toContain("This event is no longer listed");
    const page = await get(ctx, "/?event=evt_doesnotexist0000");
    expect(page.res.status).toBe(200);
    expect(page.body).toContain('<dialog id="event-modal" class="modal" aria-modal="true" aria-labelledby="event-modal-title" data-missing open>');
    expect(page.body).toContain("This event is no longer listed");
    expect(page.body).toContain("<title>finder · Fête de la Musique in Paris</title>");
    // A malformed key is dropped by the canonical redirect.
    const bad = await ctx.request("/?event=<script>&slug=x");
    expect(bad.headers.get("location")).toBe("/");
  });

  test("share route: 307 to the modal URL with the correct slug, an unknown key to its notice, a malformed key → /, never cached", async () => {
    const ok = await ctx.request("/event/evt_fixture000002/whatever-slug");
    expect(ok.status).toBe(307);
    expect(ok.headers.get("location")).toBe("/?event=evt_fixture000002&slug=belleville-rooftop-house");
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect((await ctx.request("/event/EVT_FIXTURE000002")).headers.get("location")).toBe("/?event=evt_fixture000002&slug=belleville-rooftop-house");
    expect((await ctx.request("/event/evt_fixture000002/a/b/c")).headers.get("location")).toBe("/?event=evt_fixture000002&slug=belleville-rooftop-house");
    const unknown = await ctx.request("/event/evt_doesnotexist0000/slug");
    expect(unknown.status).toBe(307);
    expect(unknown.headers.get("location")).toBe("/?event=evt_doesnotexist0000");
    expect((await get(ctx, unknown.headers.get("location")!)).body).toContain("This event is no longer listed");
    expect((await ctx.request("/event/%3Cscript%3E/x")).headers.get("location")).toBe("/");
    expect((await ctx.request(`/event/${"e".repeat(5000)}/x`)).headers.get("location")).toBe("/");
  });

  test("garbage parameters never give a 5xx (after following the canonical redirect)", async () => {
    const garbage = [
      "pr=abc",
      "ag=1:999",
      "pr_min=-5&pr_max=9999",
      "arr=0,21,x",
      "g=%3Cscript%3E",
      `q=${"x".repeat(5000)}`,
      "df=2026-13-45&dt=banana",
      "nat=ZZ",
      "dn=noon",
      "pick=maybe",
      "vt=underwater",
      "in=sideways",
      "%E0%A4%A=1",
      "event=&slug=",
      `event=evt_${"a".repeat(500)}`,
      "q=%00%FF",
      "g=house&g=house&g=HOUSE",
      "slug=<b>only</b>",
      "df[]=1&arr[x]=2",
    ];
    for (const q of garbage) {
      for (const headers of [{}, HTMX]) {
        const res = await ctx.request(`/?${q}`, { headers });
        expect(res.status).toBeLessThan(500);
        const location = res.headers.get("location");
        if (location) {
          const followed = await ctx.request(location, { headers });
          expect(followed.status).toBe(200);
          expect(followed.headers.get("location")).toBeNull();
        }
      }
    }
  });

  test("spotlight: an active spotlight event comes first with its badge, by its occurrence of today; the rest are curated picks; the order is stable", async () => {
    const now = ctx.deps.now();
    // The window is booked on the garden's first day (19 June); at 21:30 on 21 June its day 3 is on.
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_fixture000006", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - 3600e3), effectiveEndAt: new Date(now.getTime() + 3600e3), slot: 1 });
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    const { body } = await get(ctx, "/?dn=night");
    const spotlight = body.slice(body.indexOf('id="spotlight"'), body.indexOf('id="stats"'));
    const keys = [...spotlight.matchAll(/data-event-key="([^"]+)"/g)].map((m) => m[1]);
    expect(keys.length).toBe(3);
    // A day event, shown whatever the filters, as today's occurrence.
    const first = spotlight.slice(spotlight.indexOf("<article"), spotlight.indexOf("</article>"));
    expect(first).toContain("Batignolles Sound Garden");
    expect(first).toContain("Day 3 of 3");
    expect(first).toContain("Sun 21 June");
    expect(first).toContain(">Featured<");
    expect(spotlight).toContain(`data-ends-at="${new Date(now.getTime() + 3600e3).toISOString()}"`);
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    const again = await get(ctx, "/?dn=night");
    expect(again.cache).toBe("MISS");
    const keysAgain = [...again.body.slice(again.body.indexOf('id="spotlight"'), again.body.indexOf('id="stats"')).matchAll(/data-event-key="([^"]+)"/g)].map((m) => m[1]);
    expect(keysAgain).toEqual(keys);
    await ctx.deps.db.delete(spotlightSchedule);
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
  });

  test("saved line: on a card from 3 My-night saves (top 8 of the filtered list); in the modal from 1 ('person'); calendar additions apart", async () => {
    const rows = [...Array(3)].map(() => ({ eventKey: "evt_fixture000009", actionType: "night_save" }));
    const calendar = [...Array(4)].map(() => ({ eventKey: "evt_fixture000010", actionType: "calendar_sync" }));
    await ctx.deps.db.insert(engagementInteractions).values([...rows, ...calendar, { eventKey: "evt_fixture000010", actionType: "night_save" }]);
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    const { body } = await get(ctx, "/");
    expect(body).toContain("3 people saved this");
    expect(body).not.toContain("1 person saved this");
    expect(body).not.toContain("4 people saved this");
    const modal = await get(ctx, "/?event=evt_fixture000010");
    expect(modal.body).toContain("1 person saved this");
    expect(modal.body).toContain("Added to a calendar 4 times");
    await ctx.deps.db.delete(engagementInteractions);
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
  });

  test("the cache key keeps every variant under the path /", () => {
    expect(homeCacheKey("", null, "page")).toBe("/?@en");
    expect(homeCacheKey("g=house", null, "fragment", 1, "fr")).toBe("/?g=house#fragment@fr");
    expect(homeCacheKey("g=house", "evt_fixture000001", "page")).toBe("/?g=house|event=evt_fixture000001@en");
    expect(homeCacheKey("g=house", "evt_fixture000001", "modal")).toBe("/?|event=evt_fixture000001#modal@en");
  });
});

describe("homepage cache life (remote mode)", () => {
  const ctx = useTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
  beforeAll(async () => {
    await saveSheet(ctx, sheet(["First Night,,2026-06-21,20:00,23:00,Le Bar,11,€5,House,https://a.example,Indoor,Notes,"]));
  });

  test("STALE after 301 s while one regeneration runs, then the fresh render", async () => {
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    expect((await get(ctx, "/")).cache).toBe("MISS");
    await saveSheet(ctx, sheet(["First Night,,2026-06-21,20:00,23:00,Le Bar,11,€5,House,https://a.example,Indoor,Notes,", "Second Night,,2026-06-21,21:00,,Le Club,12,€8,Disco,,Indoor,,"]));
    ctx.clock.advance(299_000);
    const fresh = await get(ctx, "/");
    expect(fresh.cache).toBe("HIT");
    expect(fresh.body).not.toContain("Second Night");
    ctx.clock.advance(2_000);
    const stale = await get(ctx, "/");
    expect(stale.cache).toBe("STALE");
    expect(stale.body).not.toContain("Second Night");
    await ctx.deps.renderCache.settle();
    const regenerated = await get(ctx, "/");
    expect(regenerated.cache).toBe("HIT");
    expect(regenerated.body).toContain("Second Night");
    expect(regenerated.body).toContain("2 available");
  });

  test("a failing store read keeps serving the old render; with no render the page says events are unavailable", async () => {
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    const good = await get(ctx, "/");
    expect(good.body).toContain("First Night");
    const goodFragment = await get(ctx, "/?g=house", HTMX);
    // Every source fails now: the store holds an invalid sheet, no backup, no local file.
    await saveStoreSheet(ctx.deps.db, "Title,Date\nBroken,someday\nAlso broken,never\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    ctx.clock.advance(301_000);
    const stale = await get(ctx, "/");
    expect(stale.cache).toBe("STALE");
    await ctx.deps.renderCache.settle();
    const kept = await get(ctx, "/");
    expect(kept.res.status).toBe(200);
    expect(kept.body).toBe(good.body);
    expect(JSON.stringify(ctx.logs)).toContain("Background regeneration failed");
    expect((await get(ctx, "/?g=house", HTMX)).body).toBe(goodFragment.body);
    // A variant never rendered before: 503 with the notice, not cached.
    const missing = await get(ctx, "/?g=disco");
    expect(missing.res.status).toBe(503);
    expect(missing.body).toContain(UNAVAILABLE_TEXT);
    expect(missing.res.headers.get("cache-control")).toBe("no-store");
    const missingFragment = await get(ctx, "/?g=disco", HTMX);
    expect(missingFragment.res.status).toBe(503);
    expect(missingFragment.body).toContain(UNAVAILABLE_TEXT);
    // The share route still lands on the homepage.
    expect((await ctx.request("/event/evt_aaaaaaaaaaaaaaaa/x")).headers.get("location")).toBe("/?event=evt_aaaaaaaaaaaaaaaa");
    await saveSheet(ctx, sheet(["First Night,,2026-06-21,20:00,23:00,Le Bar,11,€5,House,https://a.example,Indoor,Notes,"]));
  });

  test("invalidation by path drops every variant of /; by tag sliding-banner drops the pages that show the banner", async () => {
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    const paths = ["/", "/?g=house"];
    for (const p of paths) await get(ctx, p);
    await get(ctx, "/?g=house", HTMX);
    for (const p of paths) expect((await get(ctx, p)).cache).toBe("HIT");
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    for (const p of paths) expect((await get(ctx, p)).cache).toBe("MISS");
    expect((await get(ctx, "/?g=house", HTMX)).cache).toBe("MISS");

    await ctx.deps.invalidation.invalidate({ tags: ["sliding-banner"] });
    expect((await get(ctx, "/")).cache).toBe("MISS");
    expect((await get(ctx, "/?g=house", HTMX)).cache).toBe("HIT"); // fragments carry no banner

    const saved = await saveBannerSettings(ctx.deps, { messages: ["Tonight: <b>everything</b> is free"] }, "admin-test");
    expect(saved.ok).toBe(true);
    const withBanner = await get(ctx, "/");
    expect(withBanner.cache).toBe("MISS");
    expect(withBanner.body).toContain("Tonight: &lt;b&gt;everything&lt;/b&gt; is free • ");
    expect(withBanner.body).not.toContain("Free events, club nights and street stages in one calendar");

    await saveBannerSettings(ctx.deps, { enabled: false }, "admin-test");
    expect((await get(ctx, "/")).body).not.toContain('class="sliding-banner"');
    await saveBannerSettings(ctx.deps, { enabled: true, messages: [] }, "admin-test").then((r) => expect(r).toEqual({ ok: false, error: "Banner needs at least one message when enabled" }));
  });

  test("hostile event text shows as text everywhere: list, modal, head, JSON-LD and map data", async () => {
    const hostile = '<script>alert("x")</script>';
    await saveSheet(
      ctx,
      sheet([
        `"${hostile.replace(/"/g, '""')}",Yes,2026-06-21,20:00,,"<img src=x onerror=alert(1)>",11,"<b>€5</b>",House,https://a.example/?q=<x>,Indoor,"</script><script>alert(2)</script>",evt_hostile000000001`,
      ]),
    );
    await ctx.deps.invalidation.invalidate({ paths: ["/"] });
    for (const path of ["/", "/?event=evt_hostile000000001&slug=script-alert-x-script"]) {
      const { body } = await get(ctx, path);
      expect(body).not.toContain("<script>alert");
      expect(body).not.toContain("<img src=x");
      expect(body).not.toContain("<b>€5</b>");
      expect(body).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    }
    const modal = (await get(ctx, "/?event=evt_hostile000000001&slug=script-alert-x-script")).body;
    expect(modal).toContain("<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; | finder</title>");
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(modal)![1];
    expect(ld).not.toContain("<");
    expect(JSON.parse(ld).name).toBe(hostile);
    const mapSrc = /data-map-src="([^"]+)"/.exec(modal)![1].replaceAll("&amp;", "&");
    const mapData = await ctx.request(mapSrc);
    expect(mapData.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await mapData.json()).venues.some((venue: { events: { n: string }[] }) => venue.events.some((e) => e.n === hostile))).toBe(true);
    const fragment = (await get(ctx, "/?q=alert", HTMX)).body;
    expect(fragment).not.toContain("<script>alert");
  });
});

describe("fallback notice", () => {
  test("remote mode served from the local file shows the amber notice; the store and test mode do not", async () => {
    await withTestApp({ env: { DATA_MODE: "remote" } }, async (ctx) => {
      await saveStoreSheet(ctx.deps.db, "Title,Date\nA,x\nB,y\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
      const { res, body } = await get(ctx, "/");
      expect(res.status).toBe(200);
      expect(body).toContain(`<p class="notice notice-warning" role="status">${FALLBACK_NOTICE}</p>`);
      expect(FALLBACK_NOTICE).toBe("Live data is currently unavailable - showing the saved event list.");
      await saveSheet(ctx, sheet(["Stored,,2026-06-21,20:00,,Le Bar,11,€5,House,,Indoor,,"]));
      await ctx.deps.invalidation.invalidate({ paths: ["/"] });
      expect((await get(ctx, "/")).body).not.toContain(FALLBACK_NOTICE);
    });
  });
});
