import { describe, expect, test } from "bun:test";
import { useTestApp } from "../../helpers/app.ts";
import { createEventReader, EventsUnavailableError, READ_REUSE_MS, seedStoreIfEmpty } from "../../../src/lib/events/pipeline.ts";
import { HOMEPAGE } from "../../../src/lib/serving/invalidation.ts";
import { saveStoreSheet } from "../../../src/lib/store/store.ts";
import { createBackup } from "../../../src/lib/store/backups.ts";
import { engagementInteractions, promotedSchedule, spotlightSchedule } from "../../../src/lib/db/schema/index.ts";
import { LOCATIONS_KV_KEY } from "../../../src/lib/geocoding/location-cache.ts";
import { loadConfig } from "../../../src/lib/config.ts";
import { testEnv } from "../../helpers/app.ts";

const ctx = useTestApp();

function reader(env: Record<string, string>) {
  const config = loadConfig(testEnv(env));
  return createEventReader({ config, db: ctx.deps.db, kv: ctx.deps.kv, log: ctx.deps.log, now: ctx.deps.now });
}

describe("read pipeline", () => {
  test("test mode reads the fixtures: keys, multi-day expansion, coordinates, projections at defaults", async () => {
    const read = await ctx.deps.events.load();
    expect(read.source).toBe("test");
    expect(read.events.length).toBe(14); // 12 rows, one of them 3 days
    expect(read.events[0].eventKey).toBe("evt_fixture000001");
    const garden = read.events.filter((e) => e.seriesKey !== null);
    expect(garden.map((e) => [e.date, e.occurrenceIndex, e.occurrenceCount])).toEqual([
      ["2026-06-19", 1, 3],
      ["2026-06-20", 2, 3],
      ["2026-06-21", 3, 3],
    ]);
    expect(new Set(garden.map((e) => e.eventKey)).size).toBe(3);
    const canal = read.events[0];
    expect(canal.coordinates).toEqual({ lat: 48.876, lng: 2.359 }); // 10e centre fallback, no API in test mode
    expect(read.events.find((e) => e.eventKey === "evt_fixture000007")!.coordinates).toBeUndefined(); // TBA venue
    expect(read.events.every((e) => e.calendarSyncCount === 0 && !e.isFeatured && !e.isPromoted)).toBe(true);
    // A live read only reads the coordinate cache; the warm-up fills it.
    expect(await ctx.deps.kv.get(LOCATIONS_KV_KEY)).toBeUndefined();
    await ctx.deps.events.warm();
    const cache = await ctx.deps.kv.get<{ locations: Record<string, unknown> }>(LOCATIONS_KV_KEY);
    expect(Object.keys(cache!.locations)).toContain("quai_de_valmy_10");
  });

  test("featured and promoted projections order the list; calendar_sync counts are projected", async () => {
    const now = ctx.deps.now();
    const hour = 3600e3;
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_fixture000009", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - hour), effectiveEndAt: new Date(now.getTime() + hour), slot: 1 });
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_fixture000002", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - 3 * hour), effectiveEndAt: new Date(now.getTime() - hour), slot: 2 });
    await ctx.deps.db.insert(promotedSchedule).values({ eventKey: "evt_fixture000011", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - hour), effectiveEndAt: new Date(now.getTime() + hour) });
    await ctx.deps.db.insert(engagementInteractions).values([
      { eventKey: "evt_fixture000004", actionType: "calendar_sync" },
      { eventKey: "evt_fixture000004", actionType: "calendar_sync" },
      { eventKey: "evt_fixture000004", actionType: "click" },
    ]);
    const read = await ctx.deps.events.load();
    expect(read.events.slice(0, 2).map((e) => e.eventKey)).toEqual(["evt_fixture000009", "evt_fixture000011"]);
    expect(read.events[0]).toMatchObject({ isFeatured: true, isPromoted: false });
    expect(read.events[0].featuredEndsAt).toBe(new Date(now.getTime() + hour).toISOString());
    expect(read.events.find((e) => e.eventKey === "evt_fixture000002")!.isFeatured).toBe(false);
    expect(read.events.find((e) => e.eventKey === "evt_fixture000004")!.calendarSyncCount).toBe(2);

    const raw = await ctx.deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
    expect(raw.events[0].eventKey).toBe("evt_fixture000001");
    expect(raw.events.find((e) => e.eventKey === "evt_fixture000004")!.calendarSyncCount).toBe(0);
  });

  test("local mode reads the sample CSV", async () => {
    const read = await reader({ DATA_MODE: "local" }).load();
    expect(read.source).toBe("local");
    expect(read.events.length).toBeGreaterThan(70);
    expect(read.fallbackReason).toBeUndefined();
  });

  test("remote mode: store first; an invalid store falls back to the newest backup, then to the local CSV", async () => {
    const remote = reader({ DATA_MODE: "remote" });
    expect(await seedStoreIfEmpty({ config: loadConfig(testEnv({ DATA_MODE: "remote" })), db: ctx.deps.db, log: ctx.deps.log, now: ctx.deps.now })).toBeGreaterThan(70);
    const fromStore = await remote.load();
    expect(fromStore.source).toBe("store");

    await saveStoreSheet(ctx.deps.db, "Title,Date\nGood,2026-06-21\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    await createBackup(ctx.deps.db, { createdBy: "admin-panel", trigger: "manual", now: ctx.deps.now() });
    // Four of five rows without a valid date: below the 80 % rule.
    await saveStoreSheet(ctx.deps.db, "Title,Date\nA,2026-06-21\nB,soon\nC,later\nD,tbc\nE,?\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    const fromBackup = await remote.load();
    expect(fromBackup.source).toBe("backup");
    expect(fromBackup.events.map((e) => e.eventName)).toEqual(["Good"]);
    expect(fromBackup.fallbackReason).toContain("store: Only 1 of 5 events");
    expect(remote.status()).toMatchObject({ source: "backup", eventCount: 1 });

    const noBackups = reader({ DATA_MODE: "remote", LOCAL_EVENTS_CSV: "data/events.csv" });
    await ctx.deps.database.query((await import("drizzle-orm")).sql`delete from event_store_backups`);
    const fromLocal = await noBackups.load();
    expect(fromLocal.source).toBe("local");
  });

  test("every source failing throws, so pages keep their previous render", async () => {
    const broken = reader({ DATA_MODE: "local", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" });
    await expect(broken.load()).rejects.toBeInstanceOf(EventsUnavailableError);
    expect(broken.status().lastErrorMessage).toContain("local:");
  });
});

describe("single flight", () => {
  test("concurrent loads share one read; the next load reads again", async () => {
    const [a, b, c] = await Promise.all([ctx.deps.events.load(), ctx.deps.events.load(), ctx.deps.events.load()]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    const later = await ctx.deps.events.load();
    expect(later).not.toBe(a);
    expect(later.fetchedAt.getTime()).toBeGreaterThanOrEqual(a.fetchedAt.getTime());
  });
});

describe("reuse of unchanged source text", () => {
  test("a save is seen by the very next read, and projections never leak between reads", async () => {
    const config = loadConfig(testEnv({ DATA_MODE: "remote" }));
    const remote = createEventReader({ config, db: ctx.deps.db, kv: ctx.deps.kv, log: ctx.deps.log, now: ctx.deps.now });
    await saveStoreSheet(ctx.deps.db, "Title,Date,Event Key\nFirst,2026-06-21,evt_memo00000000001\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    expect((await remote.load()).events.map((e) => e.eventName)).toEqual(["First"]);
    await saveStoreSheet(ctx.deps.db, "Title,Date,Event Key\nSecond,2026-06-21,evt_memo00000000001\n", { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    expect((await remote.load()).events.map((e) => e.eventName)).toEqual(["Second"]);

    const now = ctx.deps.now();
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_memo00000000001", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - 1000), effectiveEndAt: new Date(now.getTime() + 1000), slot: 1 });
    const featured = await remote.load();
    expect(featured.events[0].isFeatured).toBe(true);
    const raw = await remote.load({ includeFeaturedProjection: false });
    expect(raw.events[0].isFeatured).toBe(false);
    expect(raw.events[0]).not.toBe(featured.events[0]);
  });
});

describe("plain reads are not kept", () => {
  test("every load after a write reads the store: the next load sees it", async () => {
    const config = loadConfig(testEnv({ DATA_MODE: "remote" }));
    const remote = createEventReader({ config, db: ctx.deps.db, kv: ctx.deps.kv, log: ctx.deps.log, now: ctx.deps.now });
    const save = (title: string) => saveStoreSheet(ctx.deps.db, `Title,Date,Event Key\n${title},2026-06-21,evt_reuse0000000001\n`, { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    const names = async () => (await remote.load()).events.map((e) => e.eventName);
    await save("First");
    expect(await names()).toEqual(["First"]);
    await save("Second");
    expect(await names()).toEqual(["Second"]);
  });
});

describe("a burst of render misses shares one read", () => {
  test("`recent` loads reuse a read for READ_REUSE_MS of real time, never past it nor past an invalidation", async () => {
    const config = loadConfig(testEnv({ DATA_MODE: "remote" }));
    let elapsed = 0;
    let generation = 0;
    const remote = createEventReader({ config, db: ctx.deps.db, kv: ctx.deps.kv, log: ctx.deps.log, now: ctx.deps.now, elapsed: () => elapsed, generation: () => generation });
    const save = (title: string) => saveStoreSheet(ctx.deps.db, `Title,Date,Event Key\n${title},2026-06-21,evt_reuse0000000001\n`, { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
    const names = async (options = { recent: true }) => (await remote.load(options)).events.map((e) => e.eventName);
    await save("First");
    expect(remote.recentRead()).toBeUndefined();
    const first = await remote.load({ recent: true });
    expect(first.events.map((e) => e.eventName)).toEqual(["First"]);
    expect(first.generation).toBe(0);
    await save("Second");
    // Within the reuse time a render miss takes the read just made (at once, too); a plain load reads the store.
    elapsed += READ_REUSE_MS - 1;
    expect(remote.recentRead()).toBe(first);
    expect(await remote.load({ recent: true })).toBe(first);
    expect(await names({ recent: false })).toEqual(["Second"]);
    // Past it, the store again.
    await save("Third");
    elapsed += READ_REUSE_MS;
    expect(remote.recentRead()).toBeUndefined();
    expect(await names()).toEqual(["Third"]);
    // An invalidation (a publish here, or from another instance) ends the reuse at once.
    await save("Fourth");
    expect(await names()).toEqual(["Third"]);
    expect(remote.recentRead()?.events.map((e) => e.eventName)).toEqual(["Third"]);
    generation++;
    expect(remote.recentRead()).toBeUndefined();
    const fourth = await remote.load({ recent: true });
    expect(fourth.events.map((e) => e.eventName)).toEqual(["Fourth"]);
    expect(fourth.generation).toBe(1);
  });

  test("a kept read is not reused past the next placement window boundary, whatever the reuse time left", async () => {
    const config = loadConfig(testEnv({ DATA_MODE: "remote" }));
    let clock = ctx.deps.now().getTime();
    const remote = createEventReader({ config, db: ctx.deps.db, kv: ctx.deps.kv, log: ctx.deps.log, now: () => new Date(clock), elapsed: () => 0 });
    await saveStoreSheet(ctx.deps.db, "Title,Date,Event Key\nBoundary,2026-06-21,evt_reuse0000000003\n", { updatedBy: "admin-upload", origin: "manual", now: new Date(clock) });
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_reuse0000000003", requestedStartAt: new Date(clock), effectiveStartAt: new Date(clock - 1000), effectiveEndAt: new Date(clock + 100), slot: 1 });
    expect((await remote.load({ recent: true })).events[0].isFeatured).toBe(true);
    clock += 50;
    expect((await remote.load({ recent: true })).events[0].isFeatured).toBe(true);
    clock += 60; // the spotlight ended 10 ms ago: no real time has passed, yet the read is made again
    expect((await remote.load({ recent: true })).events[0].isFeatured).toBe(false);
  });

  describe("in the app", () => {
    const app = useTestApp({ env: { DATA_MODE: "remote" } });
    const policy = { revalidate: 300, tags: ["live-events"] };
    // What the homepage does on a miss: a recent read, and the render says when that read began.
    const render = async () => {
      const read = await app.deps.events.load({ recent: true });
      return { body: read.events.map((e) => e.eventName).join(","), generation: read.generation };
    };
    const serve = (key: string) => app.deps.renderCache.serve(new Request(`http://x${key}`), key, policy, render);

    test("every invalidation ends the reuse: the next miss reads the store", async () => {
      await saveStoreSheet(app.deps.db, "Title,Date,Event Key\nBefore,2026-06-21,evt_reuse0000000002\n", { updatedBy: "admin-upload", origin: "manual", now: app.deps.now() });
      await app.deps.invalidation.invalidate(HOMEPAGE);
      expect(await (await serve("/?q=a")).text()).toBe("Before");
      await saveStoreSheet(app.deps.db, "Title,Date,Event Key\nAfter,2026-06-21,evt_reuse0000000002\n", { updatedBy: "admin-upload", origin: "manual", now: app.deps.now() });
      await app.deps.invalidation.invalidate(HOMEPAGE);
      expect(await (await serve("/?q=b")).text()).toBe("After");
    });

    test("a render made from a read begun before an invalidation is served but not kept", async () => {
      await saveStoreSheet(app.deps.db, "Title,Date,Event Key\nShared,2026-06-21,evt_reuse0000000004\n", { updatedBy: "admin-upload", origin: "manual", now: app.deps.now() });
      await app.deps.invalidation.invalidate(HOMEPAGE);
      // A miss starts a read; the invalidation (a publish elsewhere, heard over LISTEN/NOTIFY)
      // comes while it is in flight; a second miss, started after it, joins that read.
      const first = serve("/?q=one");
      app.deps.renderCache.invalidate(HOMEPAGE);
      const second = await serve("/?q=two");
      expect(second.headers.get("x-cache")).toBe("MISS");
      expect(await second.text()).toBe("Shared");
      await first;
      // Neither render was kept: the next request of each renders again, from a read of its own, and that one is kept.
      for (const key of ["/?q=one", "/?q=two"]) {
        expect((await serve(key)).headers.get("x-cache")).toBe("MISS");
        expect((await serve(key)).headers.get("x-cache")).toBe("HIT");
      }
    });
  });
});
