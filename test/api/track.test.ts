import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import fc from "fast-check";
import { createClock, TEST_AUTH_SECRET, testEnv, type TestContext, useTestApp, postJson, withTestApp } from "../helpers/app.ts";
import { resetDatabase, sharedDatabase } from "../helpers/database.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";
import { discoveryRulesHold, parseDiscoveryBody, parseEngagementBody, parsePreferenceBody } from "../../src/lib/tracking/validation.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { loadConfig } from "../../src/lib/config.ts";
import { buildDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { createMemoryLogger } from "../../src/lib/logger.ts";
import { FILTER_GROUPS } from "../../src/lib/events/filter-query.ts";
import { GENRE_KEYS } from "../../src/lib/sheet/genres.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.tracking.flush();
  await resetDatabase(ctx.deps.database);
});

const KEY = "evt_fixture000001";
let ipCounter = 0;
/** A fresh client IP per call, so earlier tests' counts never interfere. */
const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

function post(path: string, body: unknown, headers: Record<string, string> = {}, context = ctx) {
  return postJson(context, path, body, { "x-forwarded-for": freshIp(), ...headers });
}

async function expectAccepted(res: Response) {
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ success: true });
  expect(res.headers.get("content-type")).toContain("application/json");
  for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
}

async function rows<T = Record<string, unknown>>(table: "engagement_interactions" | "discovery_interactions" | "genre_preferences", context = ctx): Promise<T[]> {
  await context.deps.tracking.flush();
  return context.deps.database.query<T>(sql.raw(`select * from ${table} order by 1, 2`));
}

async function cookieFor(email: string): Promise<string> {
  const { token } = await signUserToken(TEST_AUTH_SECRET, email, ctx.clock.now());
  return `theme=dark; finder_user_session=${token}`;
}

describe("POST /api/track", () => {
  test("records a valid interaction: key lower-cased, text trimmed, blanks null, anonymous", async () => {
    await expectAccepted(await post("/api/track", { eventKey: " EVT_Fixture000001 ", actionType: "calendar_sync", sessionId: " 3f2a-session ", source: "modal_calendar_sync", path: "  ", extra: "ignored" }));
    const [row] = await rows("engagement_interactions");
    expect(row).toMatchObject({ event_key: KEY, action_type: "calendar_sync", session_id: "3f2a-session", source: "modal_calendar_sync", path: null, is_authenticated: false, user_email: null });
    expect(new Date(row.recorded_at as string).toISOString()).toBe(ctx.clock.now().toISOString());
  });

  test("every action type is recorded; a null sessionId counts as absent", async () => {
    for (const actionType of ["click", "outbound_click", "calendar_sync"]) await expectAccepted(await post("/api/track", { eventKey: KEY, actionType, sessionId: null, source: null, path: null }));
    expect((await rows<{ action_type: string; session_id: unknown }>("engagement_interactions")).map((r) => [r.action_type, r.session_id]).sort()).toEqual([
      ["calendar_sync", null],
      ["click", null],
      ["outbound_click", null],
    ]);
  });

  test("a sendBeacon body (text/plain) is read as JSON", async () => {
    await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click" }, { "content-type": "text/plain;charset=UTF-8" }));
    expect(await rows("engagement_interactions")).toHaveLength(1);
  });

  const notRecorded: [string, unknown][] = [
    ["malformed JSON", '{"eventKey":'],
    ["an empty body", ""],
    ["a JSON array", [{ eventKey: KEY, actionType: "click" }]],
    ["JSON null", "null"],
    ["an unknown action", { eventKey: KEY, actionType: "view" }],
    ["a missing key", { actionType: "click" }],
    ["a key of 221 characters", { eventKey: `${KEY}${"x".repeat(204)}`, actionType: "click" }],
    ["an array key", { eventKey: [KEY], actionType: "click" }],
    ["a number key", { eventKey: 1, actionType: "click" }],
    ["an unknown event key", { eventKey: "evt_nosuchevent00", actionType: "click" }],
    ["a sessionId of 121 characters", { eventKey: KEY, actionType: "click", sessionId: "s".repeat(121) }],
    ["an array sessionId", { eventKey: KEY, actionType: "click", sessionId: ["s"] }],
    ["a source of 81 characters", { eventKey: KEY, actionType: "click", source: "s".repeat(81) }],
    ["a path of 281 characters", { eventKey: KEY, actionType: "click", path: "/".repeat(281) }],
    ["an object path", { eventKey: KEY, actionType: "click", path: { toString: "x" } }],
    ["a NUL character", { eventKey: KEY, actionType: "click", path: "/a\u0000" }],
  ];
  for (const [name, body] of notRecorded) {
    test(`accepted but not recorded: ${name}`, async () => {
      await expectAccepted(await post("/api/track", body));
      expect(await rows("engagement_interactions")).toHaveLength(0);
    });
  }

  test("bounds: exactly 120/80/280 characters are recorded, markup and unicode stored as text", async () => {
    const body = { eventKey: KEY, actionType: "click", sessionId: "é".repeat(120), source: "🎶".repeat(80), path: `/<script>alert("x")</script>${"a".repeat(252)}` };
    expect(body.path.length).toBe(280);
    await expectAccepted(await post("/api/track", body));
    const [row] = await rows("engagement_interactions");
    expect(row).toMatchObject({ session_id: body.sessionId, source: body.source, path: body.path });
  });

  test("a 1 MiB body is accepted and not recorded; over the cap it is 413", async () => {
    const envelope = JSON.stringify({ eventKey: KEY, actionType: "click", path: "" });
    const filler = "x".repeat(1024 * 1024 - envelope.length);
    const body = JSON.stringify({ eventKey: KEY, actionType: "click", path: filler });
    expect(body.length).toBe(1024 * 1024);
    await expectAccepted(await post("/api/track", body, { "content-length": String(body.length) }));
    expect(await rows("engagement_interactions")).toHaveLength(0);
    const over = JSON.stringify({ eventKey: KEY, actionType: "click", path: `${filler}${"y".repeat(100)}` });
    const res = await post("/api/track", over, { "content-length": String(over.length) });
    expect(res.status).toBe(413);
  });

  test("a valid user cookie marks the record authenticated and keeps the email; a bad cookie is anonymous", async () => {
    await post("/api/track", { eventKey: KEY, actionType: "outbound_click", sessionId: "signed" }, { cookie: await cookieFor("fan@example.com") });
    await post("/api/track", { eventKey: KEY, actionType: "outbound_click", sessionId: "forged" }, { cookie: "finder_user_session=eyJhbGciOiJIUzI1NiJ9.e30.bad" });
    await post("/api/track", { eventKey: KEY, actionType: "outbound_click", sessionId: "json" }, { cookie: 'finder_user_session={"email":"x@y.z"}' });
    const stored = await rows<{ session_id: string; is_authenticated: boolean; user_email: string | null }>("engagement_interactions");
    expect(Object.fromEntries(stored.map((r) => [r.session_id, [r.is_authenticated, r.user_email]]))).toEqual({
      signed: [true, "fan@example.com"],
      forged: [false, null],
      json: [false, null],
    });
  });

  test("per IP: 240 per 60 s are recorded, the rest accepted and not recorded", async () => {
    const ip = freshIp();
    for (let i = 0; i < 245; i++) await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: `ip-test-${i}` }, { "x-forwarded-for": ip }));
    expect(await rows("engagement_interactions")).toHaveLength(240);
    ctx.clock.advance(60_000);
    await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "after-window" }, { "x-forwarded-for": ip });
    expect(await rows("engagement_interactions")).toHaveLength(241);
  });

  test("per session: 200 per 60 s across IPs; requests without a sessionId are not session-limited", async () => {
    for (let i = 0; i < 205; i++) await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "busy-session" });
    expect(await rows("engagement_interactions")).toHaveLength(200);
    await resetDatabase(ctx.deps.database);
    for (let i = 0; i < 205; i++) await post("/api/track", { eventKey: KEY, actionType: "click" });
    expect(await rows("engagement_interactions")).toHaveLength(205);
  });

  test("invalid bodies and unknown keys do not count against the limits (they come after the catalog check)", async () => {
    const ip = freshIp();
    for (let i = 0; i < 300; i++) await post("/api/track", { eventKey: "evt_unknown000000", actionType: "click", sessionId: "s-unknown" }, { "x-forwarded-for": ip });
    await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "s-unknown" }, { "x-forwarded-for": ip });
    expect(await rows("engagement_interactions")).toHaveLength(1);
  });

  test("a recorded calendar_sync reaches the events' calendarSyncCount (the saved line)", async () => {
    for (let i = 0; i < 3; i++) await post("/api/track", { eventKey: "EVT_FIXTURE000003", actionType: "calendar_sync", sessionId: `cal-${i}` });
    await post("/api/track", { eventKey: "evt_fixture000003", actionType: "click" });
    await ctx.deps.tracking.flush();
    const { events } = await ctx.deps.events.load();
    expect(events.find((e) => e.eventKey === "evt_fixture000003")?.calendarSyncCount).toBe(3);
    expect(events.find((e) => e.eventKey === KEY)?.calendarSyncCount).toBe(0);
  });
});

describe("POST /api/track/discovery", () => {
  test("records filter_apply, search and filter_clear with group, value and query trimmed and lower-cased", async () => {
    await expectAccepted(await post("/api/track/discovery", { actionType: "filter_apply", sessionId: "d1", filterGroup: " Genre ", filterValue: " Hip Hop ", path: "/?g=hip%20hop" }));
    await expectAccepted(await post("/api/track/discovery", { actionType: "search", sessionId: "d1", searchQuery: "  Afro HOUSE  " }));
    await expectAccepted(await post("/api/track/discovery", { actionType: "filter_clear", sessionId: "d1", filterValue: "all" }));
    const stored = await rows<Record<string, unknown>>("discovery_interactions");
    expect(stored.map((r) => [r.action_type, r.filter_group, r.filter_value, r.search_query, r.is_authenticated, r.user_email])).toEqual([
      ["filter_apply", "genre", "hip hop", null, false, null],
      ["search", null, null, "afro house", false, null],
      ["filter_clear", null, "all", null, false, null],
    ]);
  });

  test("the user cookie stores the email and marks the record authenticated", async () => {
    await post("/api/track/discovery", { actionType: "search", sessionId: "d2", searchQuery: "jazz" }, { cookie: await cookieFor("Listener@Example.com") });
    const [row] = await rows("discovery_interactions");
    expect(row).toMatchObject({ is_authenticated: true, user_email: "listener@example.com" });
  });

  const notRecorded: [string, unknown][] = [
    ["filter_apply without a group", { actionType: "filter_apply", filterValue: "house" }],
    ["filter_apply without a value", { actionType: "filter_apply", filterGroup: "genre", filterValue: " " }],
    ["filter_apply with an unknown group", { actionType: "filter_apply", filterGroup: "mood", filterValue: "happy" }],
    ["search of one character", { actionType: "search", searchQuery: " a " }],
    ["search without a query", { actionType: "search" }],
    ["a query of 281 characters", { actionType: "search", searchQuery: "q".repeat(281) }],
    ["a value of 121 characters", { actionType: "filter_apply", filterGroup: "genre", filterValue: "v".repeat(121) }],
    ["an unknown action", { actionType: "scroll" }],
    ["an array query", { actionType: "search", searchQuery: ["jazz"] }],
    ["malformed JSON", "{"],
  ];
  for (const [name, body] of notRecorded) {
    test(`accepted but not recorded: ${name}`, async () => {
      await expectAccepted(await post("/api/track/discovery", body));
      expect(await rows("discovery_interactions")).toHaveLength(0);
    });
  }

  test("every filter group is accepted for filter_apply", async () => {
    for (const group of FILTER_GROUPS) await post("/api/track/discovery", { actionType: "filter_apply", sessionId: `g-${group}`, filterGroup: group, filterValue: "x" });
    expect(await rows("discovery_interactions")).toHaveLength(FILTER_GROUPS.length);
  });

  test("per IP 180/60 s, counting requests that fail the rules (the IP limit comes before the rules)", async () => {
    const ip = freshIp();
    for (let i = 0; i < 180; i++) await post("/api/track/discovery", { actionType: "filter_apply", sessionId: `r-${i}` }, { "x-forwarded-for": ip });
    await post("/api/track/discovery", { actionType: "search", sessionId: "r-valid", searchQuery: "house" }, { "x-forwarded-for": ip });
    expect(await rows("discovery_interactions")).toHaveLength(0);
  });

  test("per session 150/60 s; requests without a sessionId share the 'unknown' session", async () => {
    for (let i = 0; i < 155; i++) await post("/api/track/discovery", { actionType: "search", sessionId: "chatty", searchQuery: "house" });
    expect(await rows("discovery_interactions")).toHaveLength(150);
    await resetDatabase(ctx.deps.database);
    for (let i = 0; i < 155; i++) await post("/api/track/discovery", { actionType: "filter_clear" });
    expect(await rows("discovery_interactions")).toHaveLength(150);
  });
});

describe("POST /api/user/preference", () => {
  test("a signed-in visitor's genre choices add up per (email, genre)", async () => {
    const cookie = await cookieFor("fan@example.com");
    await expectAccepted(await post("/api/user/preference", { genre: " House " }, { cookie }));
    await expectAccepted(await post("/api/user/preference", { genre: "house", incrementBy: 10 }, { cookie }));
    await expectAccepted(await post("/api/user/preference", { genre: "r&b", incrementBy: 2 }, { cookie }));
    ctx.clock.advance(5_000);
    await expectAccepted(await post("/api/user/preference", { genre: "house", incrementBy: 1 }, { cookie }));
    const stored = await rows<{ email: string; genre: string; score: number; first_seen_at: string; last_seen_at: string }>("genre_preferences");
    expect(stored.map((r) => [r.email, r.genre, r.score])).toEqual([
      ["fan@example.com", "house", 12],
      ["fan@example.com", "r&b", 2],
    ]);
    expect(new Date(stored[0].last_seen_at).getTime() - new Date(stored[0].first_seen_at).getTime()).toBe(5_000);
  });

  test("anonymous, invalid or unknown-genre calls are 202 no-ops", async () => {
    const cookie = await cookieFor("fan@example.com");
    await expectAccepted(await post("/api/user/preference", { genre: "house" }));
    await expectAccepted(await post("/api/user/preference", { genre: "house" }, { cookie: "finder_user_session=nope" }));
    for (const body of [{ genre: "techno" }, { genre: "house", incrementBy: 11 }, { genre: "house", incrementBy: 0 }, { genre: "house", incrementBy: 1.5 }, { genre: ["house"] }, "{", ""]) {
      await expectAccepted(await post("/api/user/preference", body, { cookie }));
    }
    expect(await rows("genre_preferences")).toHaveLength(0);
  });

  test("per IP 120/60 s: the rest are no-ops", async () => {
    const cookie = await cookieFor("fan@example.com");
    const ip = freshIp();
    for (let i = 0; i < 125; i++) await post("/api/user/preference", { genre: "zouk" }, { cookie, "x-forwarded-for": ip });
    const [row] = await rows<{ score: number }>("genre_preferences");
    expect(row.score).toBe(120);
  });
});

describe("property: 1,000 random bodies per endpoint", () => {
  const junk = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
  const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: junk });
  const session = fc.oneof(fc.constant(null), fc.uuid(), fc.constantFrom("a", "b", " ", ""), fc.string({ maxLength: 130 }));
  const fixtureKeys = Array.from({ length: 12 }, (_, i) => `evt_fixture${String(i + 1).padStart(6, "0")}`);
  const keyArb = fc.oneof(fc.constantFrom(...fixtureKeys), fc.constantFrom(...fixtureKeys).map((k) => ` ${k.toUpperCase()} `), fc.constantFrom("evt_nosuchevent00", ""), junk);
  // Earlier tests used up some session windows ("unknown" among them): start every property run in fresh windows.
  beforeEach(() => ctx.clock.advance(61_000));
  const asBody = (value: unknown) => fc.oneof({ weight: 9, arbitrary: fc.constant(JSON.stringify(value)) }, { weight: 1, arbitrary: fc.constant(JSON.stringify(value).slice(0, -1)) });

  test("tracking: always 202, exactly the valid and admitted bodies recorded, nothing invalid stored", async () => {
    const catalog = new Set((await ctx.deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false })).events.map((e) => e.eventKey));
    const bodies = fc.sample(
      fc.record({ eventKey: keyArb, actionType: maybe(fc.constantFrom("click", "outbound_click", "calendar_sync")), sessionId: maybe(session), source: maybe(fc.string({ maxLength: 90 })), path: maybe(fc.string({ maxLength: 290 })) }, { requiredKeys: [] }).chain(asBody),
      { numRuns: 1000, seed: 6 },
    );
    const perSession = new Map<string, number>();
    let expected = 0;
    for (const text of bodies) {
      const res = await post("/api/track", text);
      expect(res.status).toBe(202);
      let parsed;
      try {
        parsed = parseEngagementBody(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (!parsed || !catalog.has(parsed.eventKey)) continue;
      if (parsed.sessionId !== null) {
        const n = (perSession.get(parsed.sessionId) ?? 0) + 1;
        perSession.set(parsed.sessionId, n);
        if (n > 200) continue;
      }
      expected++;
    }
    const stored = await rows<Record<string, string | null>>("engagement_interactions");
    expect(expected).toBeGreaterThan(100);
    expect(stored).toHaveLength(expected);
    for (const row of stored) {
      expect(catalog.has(row.event_key!)).toBe(true);
      expect(["click", "outbound_click", "calendar_sync"]).toContain(row.action_type!);
      if (row.session_id !== null) expect([...row.session_id].length).toBeLessThanOrEqual(120);
      if (row.source !== null) expect([...row.source].length).toBeLessThanOrEqual(80);
      if (row.path !== null) expect([...row.path].length).toBeLessThanOrEqual(280);
    }
  });

  test("discovery: always 202, exactly the valid bodies that pass the rules and limits recorded", async () => {
    const bodies = fc.sample(
      fc.record(
        {
          actionType: maybe(fc.constantFrom("search", "filter_apply", "filter_clear")),
          sessionId: maybe(session),
          filterGroup: maybe(fc.oneof(fc.constantFrom(...FILTER_GROUPS), fc.constantFrom(" GENRE ", "mood"))),
          filterValue: maybe(fc.string({ maxLength: 125 })),
          searchQuery: maybe(fc.string({ maxLength: 285 })),
          path: maybe(fc.string({ maxLength: 290 })),
        },
        { requiredKeys: [] },
      ).chain(asBody),
      { numRuns: 1000, seed: 7 },
    );
    const perSession = new Map<string, number>();
    let expected = 0;
    for (const text of bodies) {
      const res = await post("/api/track/discovery", text);
      expect(res.status).toBe(202);
      let parsed;
      try {
        parsed = parseDiscoveryBody(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (!parsed || !discoveryRulesHold(parsed)) continue;
      const key = parsed.sessionId ?? "unknown";
      const n = (perSession.get(key) ?? 0) + 1;
      perSession.set(key, n);
      if (n > 150) continue;
      expected++;
    }
    const stored = await rows<Record<string, string | null>>("discovery_interactions");
    expect(expected).toBeGreaterThan(50);
    expect(stored).toHaveLength(expected);
    for (const row of stored) {
      if (row.filter_group !== null) expect(FILTER_GROUPS as readonly string[]).toContain(row.filter_group);
      if (row.action_type === "filter_apply") expect(row.filter_value).not.toBeNull();
      if (row.action_type === "search") expect([...row.search_query!].length).toBeGreaterThanOrEqual(2);
    }
  });

  test("preferences: always 202, scores equal the sum of the valid increments", async () => {
    const cookie = await cookieFor("prop@example.com");
    const bodies = fc.sample(
      fc.record({ genre: maybe(fc.oneof(fc.constantFrom(...GENRE_KEYS), fc.constantFrom(" HOUSE ", "techno"))), incrementBy: maybe(fc.integer({ min: -2, max: 12 })) }, { requiredKeys: [] }).chain(asBody),
      { numRuns: 1000, seed: 8 },
    );
    const expected = new Map<string, number>();
    for (const text of bodies) {
      const res = await post("/api/user/preference", text, { cookie });
      expect(res.status).toBe(202);
      let parsed;
      try {
        parsed = parsePreferenceBody(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (parsed) expected.set(parsed.genre, (expected.get(parsed.genre) ?? 0) + parsed.incrementBy);
    }
    const stored = await rows<{ genre: string; score: number }>("genre_preferences");
    expect(Object.fromEntries(stored.map((r) => [r.genre, r.score]))).toEqual(Object.fromEntries(expected));
  });
});

describe("failures never reach the visitor", () => {
  test("a live catalog that cannot be read: 202 and nothing recorded", async () => {
    await withTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" }, keepData: true }, async (broken) => {
      await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click" }, {}, broken));
      expect(await rows("engagement_interactions", broken)).toHaveLength(0);
      expect(broken.logs.some((l) => l.level === "warn" && l.line.includes("Live catalog read failed"))).toBe(true);
    });
  });

  test("a limiter that cannot decide: tracking is not recorded, preferences are", async () => {
    // A service whose limiter has no room for any key, registered before the app is built.
    const config = loadConfig(testEnv());
    const clock = createClock();
    const deps = await buildDeps(config, { database: await sharedDatabase(), log: createMemoryLogger(), now: clock.now, skipMigrations: true, ownsDatabase: false, tracking: { limiterMaxKeys: 0 } });
    const app = createApp(deps);
    const full = { ...ctx, deps, request: (path: string, init?: RequestInit) => app.handle(new Request(`http://finder.test${path}`, init)) } as TestContext;
    try {
      await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click" }, {}, full));
      await expectAccepted(await post("/api/track/discovery", { actionType: "search", searchQuery: "house" }, {}, full));
      await expectAccepted(await post("/api/user/preference", { genre: "house" }, { cookie: await cookieFor("open@example.com") }, full));
      expect(await rows("engagement_interactions", full)).toHaveLength(0);
      expect(await rows("discovery_interactions", full)).toHaveLength(0);
      expect(await rows("genre_preferences", full)).toHaveLength(1);
    } finally {
      await deps.shutdown();
    }
  });

  test("the database down: still 202, rows kept in memory, written once it is back", async () => {
    const shared = await sharedDatabase();
    let down = false;
    const refuse = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    const db = new Proxy(shared.db, { get: (t, p, r) => (p === "execute" && down ? refuse : Reflect.get(t, p, r)) });
    const log = createMemoryLogger();
    // The limiter store is the same database: with the local fallback the limits keep deciding.
    const deps = await buildDeps(loadConfig(testEnv({ TRACKING_LIMITER_FALLBACK: "local" })), { database: { ...shared, db }, log, now: createClock().now, skipMigrations: true, ownsDatabase: false, tracking: { flushIntervalMs: 5 } });
    const app = createApp(deps);
    const outage = { ...ctx, deps, request: (path: string, init?: RequestInit) => app.handle(new Request(`http://finder.test${path}`, init)) } as TestContext;
    try {
      // The catalog is read while the database answers, then it goes away.
      await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "before" }, {}, outage);
      await deps.tracking.flush();
      down = true;
      for (let i = 0; i < 20; i++) await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: `during-${i}` }, {}, outage));
      await expectAccepted(await post("/api/track/discovery", { actionType: "search", sessionId: "during", searchQuery: "house" }, {}, outage));
      expect(await deps.tracking.flush()).toBe(false);
      expect(deps.tracking.stats().engagement).toMatchObject({ backlog: 20, failing: true, dropped: 0 });
      expect(log.lines.some((l) => l.level === "warn" && l.line.includes("rows kept for retry"))).toBe(true);
      down = false;
      expect(await deps.tracking.flush()).toBe(true);
      const stored = await shared.query<{ session_id: string }>(sql`select session_id from engagement_interactions`);
      expect(stored.map((r) => r.session_id).sort()).toEqual(["before", ...Array.from({ length: 20 }, (_, i) => `during-${i}`)].sort());
      expect(await shared.query(sql`select 1 from discovery_interactions`)).toHaveLength(1);
      expect(log.lines.some((l) => l.line.includes("Database writes recovered"))).toBe(true);
    } finally {
      down = false;
      await deps.shutdown();
    }
  });

  for (const fallback of ["none", "local"] as const) {
    test(`the limiter store down, TRACKING_LIMITER_FALLBACK=${fallback}: ${fallback === "none" ? "engagement and discovery record nothing, preferences go ahead" : "limits decided on local counts, interactions recorded"}`, async () => {
      const shared = await sharedDatabase();
      let limiterDown = false;
      const dialect = new PgDialect();
      const isLimiterStatement = (query: unknown) => dialect.sqlToQuery(query as never).sql.includes("rate_limit_counters");
      const refuse = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
      const db = new Proxy(shared.db, {
        get: (t, p, r) => (p === "execute" ? (query: unknown) => (limiterDown && isLimiterStatement(query) ? refuse() : t.execute(query as never)) : Reflect.get(t, p, r)),
      });
      const deps = await buildDeps(loadConfig(testEnv({ TRACKING_LIMITER_FALLBACK: fallback })), { database: { ...shared, db }, log: createMemoryLogger(), now: createClock().now, skipMigrations: true, ownsDatabase: false });
      const app = createApp(deps);
      const split = { ...ctx, deps, request: (path: string, init?: RequestInit) => app.handle(new Request(`http://finder.test${path}`, init)) } as TestContext;
      try {
        await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "before" }, {}, split));
        expect(await deps.tracking.flush()).toBe(true);
        limiterDown = true;
        // The next sync fails: from then on the limiter knows its store is down.
        await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "first-during" }, {}, split));
        expect(await deps.tracking.limiter.flush()).toBe(false);
        await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click", sessionId: "during" }, {}, split));
        await expectAccepted(await post("/api/track/discovery", { actionType: "search", sessionId: "during", searchQuery: "house" }, {}, split));
        await expectAccepted(await post("/api/user/preference", { genre: "house" }, { cookie: await cookieFor("open@example.com") }, split));
        await deps.tracking.flush();
        const sessions = (await shared.query<{ session_id: string }>(sql`select session_id from engagement_interactions`)).map((r) => r.session_id).sort();
        const discoveries = await shared.query(sql`select 1 from discovery_interactions`);
        expect(await shared.query(sql`select 1 from genre_preferences`)).toHaveLength(1);
        if (fallback === "none") {
          expect(sessions).toEqual(["before", "first-during"]);
          expect(discoveries).toHaveLength(0);
        } else {
          expect(sessions).toEqual(["before", "during", "first-during"]);
          expect(discoveries).toHaveLength(1);
        }
      } finally {
        limiterDown = false;
        await deps.shutdown();
      }
    });
  }

  test("an exception inside tracking is logged and still answered 202", async () => {
    const service = ctx.deps.tracking;
    const original = service.catalog.has;
    service.catalog.has = async () => {
      throw new Error("boom");
    };
    try {
      await expectAccepted(await post("/api/track", { eventKey: KEY, actionType: "click" }));
      expect(ctx.logs.some((l) => l.level === "error" && l.line.includes("Tracking request failed"))).toBe(true);
    } finally {
      service.catalog.has = original;
    }
  });
});
