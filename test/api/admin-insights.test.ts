// The admin insights API through the app: the dashboard JSON, both CSV exports parsed back with
// papaparse cell by cell, the collected users, erasure, and bad input (400s or clamping, never 5xx).

import { beforeEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { plus, seedDiscovery, seedEngagement } from "../helpers/insights.ts";

const ctx = useTestApp();
const NOW = "2026-06-21T20:00:00.000Z";
const T = "2026-06-21T12:00:00.000Z";

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set(NOW);
});

const get = (path: string) => ctx.request(path, { headers: ADMIN_KEY_HEADER });
const csv = async (res: Response) => Papa.parse<string[]>(await res.text(), { skipEmptyLines: true }).data;

async function seedUsers() {
  await ctx.deps.database.query(sql`
    insert into users (email, first_name, last_name, consent, source, first_seen_at, last_seen_at, verification_count) values
      ('ada@example.org', 'Ada', '=HYPERLINK("http://x")', true, 'sign-in', '2026-06-01T10:00:00Z', '2026-06-21T10:00:00Z', 3),
      ('bob@example.org', 'Bob, "the builder"', null, false, '+33 source', '2026-06-10T10:00:00Z', '2026-06-15T10:00:00Z', 1),
      ('cy@example.org', null, null, null, null, '2026-05-01T10:00:00Z', '2026-05-01T10:00:00Z', 2)`);
  await ctx.deps.database.query(sql`insert into user_verifications (email, submitted_at) values ('ada@example.org', '2026-06-21T10:00:00Z'), ('bob@example.org', '2026-06-15T10:00:00Z')`);
  await ctx.deps.database.query(sql`insert into genre_preferences (email, genre, score) values ('ada@example.org', 'house', 9), ('ada@example.org', 'amapiano', 4), ('ada@example.org', 'pop', 2), ('ada@example.org', 'soca', 1)`);
}

describe("GET /api/admin/insights", () => {
  test("the report: summary, per-event with live names, daily series, discovery", async () => {
    await seedEngagement(ctx.deps.database, [
      { key: "evt_fixture000002", session: "s1", at: T },
      { key: "evt_fixture000002", session: "s1", at: plus(T, 599) },
      { key: "evt_fixture000002", session: "s1", at: plus(T, 1199) },
      { key: "evt_fixture000002", action: "calendar_sync", session: "s1", at: plus(T, 1200) },
      { key: "gone-event", session: null, at: T },
    ]);
    await seedDiscovery(ctx.deps.database, [{ action: "search", session: "s1", at: T, query: "house" }]);
    const res = await get("/api/admin/insights?windowDays=7&cluster=aggressive");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(body).toMatchObject({ success: true, windowDays: 7, cluster: "aggressive" });
    expect(body.summary).toMatchObject({ clickCount: 4, dedupedViewCount: 3, calendarSyncCount: 1, uniqueSessionCount: 1, calendarInteractionRate: 25 });
    expect(body.events).toEqual([
      { eventKey: "evt_fixture000002", eventName: "Belleville Rooftop House", clickCount: 3, dedupedViewCount: 2, outboundClickCount: 0, calendarSyncCount: 1, uniqueSessionCount: 1, conversionRate: 50 },
      { eventKey: "gone-event", eventName: "gone-event", clickCount: 1, dedupedViewCount: 1, outboundClickCount: 0, calendarSyncCount: 0, uniqueSessionCount: 0, conversionRate: 0 },
    ]);
    expect(body.daily).toHaveLength(8);
    expect(body.daily.at(-1)).toEqual({ day: "2026-06-21", clickCount: 4, dedupedViewCount: 3, outboundClickCount: 0, calendarSyncCount: 1 });
    expect(body.discovery.topSearches).toEqual([{ query: "house", count: 1, variantCount: 1, variants: [{ query: "house", count: 1 }] }]);
  });

  test("an empty database answers zeros and empty lists", async () => {
    const body = await (await get("/api/admin/insights")).json();
    expect(body.windowDays).toBe(30);
    expect(body.cluster).toBe("conservative");
    expect(body.events).toEqual([]);
    expect(body.daily).toHaveLength(31);
  });

  const clamped: [string, number][] = [
    ["0", 1],
    ["-5", 1],
    ["366", 365],
    ["1e9", 365],
    ["7.4", 7],
    ["", 30],
  ];
  for (const [raw, days] of clamped) {
    test(`windowDays=${raw || "(blank)"} is clamped to ${days}`, async () => {
      const res = await get(`/api/admin/insights?windowDays=${encodeURIComponent(raw)}`);
      expect(res.status).toBe(200);
      expect((await res.json()).windowDays).toBe(days);
    });
  }

  for (const query of ["windowDays=abc", "windowDays=NaN", "cluster=fuzzy", "cluster=%3Cscript%3E", "windowDays=abc&cluster=x"]) {
    test(`${query} → 400 with issues`, async () => {
      const res = await get(`/api/admin/insights?${query}`);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.issues.length).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toContain("<script>");
    });
  }

  test("without a credential: 401", async () => {
    expect((await ctx.request("/api/admin/insights")).status).toBe(401);
    expect((await ctx.request("/api/admin/users.csv")).status).toBe(401);
  });

  test("hostile queries (emoji, RTL, markup, 280 characters) come back as data", async () => {
    const hostile = ["🎶🔥 live", "موسيقى حية", "<img src=x onerror=alert(1)>", "x".repeat(280)];
    await seedDiscovery(ctx.deps.database, hostile.map((query) => ({ action: "search" as const, session: "h", at: T, query })));
    const body = await (await get("/api/admin/insights?cluster=aggressive")).json();
    expect(body.discovery.topSearches.flatMap((c: { variants: { query: string }[] }) => c.variants.map((v) => v.query)).sort()).toEqual([...hostile].sort());
  });
});

describe("GET /api/admin/insights/audience.csv", () => {
  beforeEach(async () => {
    await seedUsers();
    await seedEngagement(ctx.deps.database, [
      { key: "a", session: "s-ada", at: T, email: "ada@example.org" },
      { key: "a", session: "s-ada", at: plus(T, 1) },
      { key: "a", action: "calendar_sync", session: "s-ada", at: plus(T, 2) },
      { key: "a", session: "=cmd|' /C calc'!A0", at: plus(T, 3) },
      { key: "a", action: "outbound_click", session: "s-anon", at: plus(T, 4) },
      { key: "a", session: null, at: plus(T, 5) },
      { key: "a", session: "s-old", at: "2026-01-01T00:00:00Z" },
    ]);
    await seedDiscovery(ctx.deps.database, [
      { action: "search", session: "s-ada", at: plus(T, 10), query: "house" },
      { action: "filter_apply", session: "s-anon", at: plus(T, 11), group: "genre", value: "pop" },
      { action: "search", session: "s-search-only", at: plus(T, 12), query: "jazz" },
    ]);
  });

  test("one row per session in the window, sorted, formulas neutralised, cell by cell", async () => {
    const res = await get("/api/admin/insights/audience.csv?windowDays=30&minInteractions=0");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="audience-export-2026-06-21.csv"');
    const rows = await csv(res);
    expect(rows).toEqual([
      ["email", "session_id", "clicks", "outbound_clicks", "calendar_syncs", "searches", "filter_applies", "total_interactions", "preferred_genres", "last_activity_at"],
      ["ada@example.org", "s-ada", "2", "0", "1", "1", "0", "3", "house; amapiano; pop", plus(T, 10)],
      ["", "s-anon", "0", "1", "0", "0", "1", "1", "", plus(T, 11)],
      ["", "'=cmd|' /C calc'!A0", "1", "0", "0", "0", "0", "1", "", plus(T, 3)],
      ["", "s-search-only", "0", "0", "0", "1", "0", "0", "", plus(T, 12)],
    ]);
  });

  test("lines end with \\n, never CRLF", async () => {
    const text = await (await get("/api/admin/insights/audience.csv?windowDays=30&minInteractions=0")).text();
    expect(text).not.toContain("\r");
    expect(text.split("\n")).toHaveLength(6);
    expect(text.endsWith("\n")).toBe(true);
  });

  test("the email of a user who did not consent is left out (the session stays, anonymous)", async () => {
    await seedEngagement(ctx.deps.database, [{ key: "a", session: "s-bob", at: plus(T, 20), email: "bob@example.org" }]);
    const rows = await csv(await get("/api/admin/insights/audience.csv?windowDays=30&minInteractions=0"));
    const bob = rows.find((r) => r[1] === "s-bob");
    expect(bob?.[0]).toBe("");
    expect(rows.find((r) => r[1] === "s-ada")?.[0]).toBe("ada@example.org");
    expect(rows.some((r) => r.includes("bob@example.org"))).toBe(false);
  });

  const filtered: [string, string[]][] = [
    ["", ["s-ada", "s-anon", "'=cmd|' /C calc'!A0"]],
    ["&minInteractions=2", ["s-ada"]],
    ["&calendarSyncOnly=1", ["s-ada"]],
    ["&outboundClickOnly=1", ["s-anon"]],
    ["&topGenres=pop,soca", ["s-ada"]],
    ["&topGenres=soca", []],
  ];
  for (const [params, sessions] of filtered) {
    test(`filters ${params || "(defaults: at least 1 interaction)"}`, async () => {
      const rows = await csv(await get(`/api/admin/insights/audience.csv?windowDays=30${params}`));
      expect(rows.slice(1).map((r) => r[1])).toEqual(sessions);
    });
  }

  for (const params of ["topGenres=polka-not-a-genre", "minInteractions=-1", "minInteractions=abc", "calendarSyncOnly=yes", "windowDays=abc"]) {
    test(`${params} → 400`, async () => {
      const res = await get(`/api/admin/insights/audience.csv?${params}`);
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    });
  }
});

describe("collected users", () => {
  beforeEach(seedUsers);

  test("GET /api/admin/users: tiles and list", async () => {
    const body = await (await get("/api/admin/users")).json();
    expect(body.summary).toEqual({ uniqueUsers: 3, verifications: 6, last24Hours: 1, last7Days: 2, consented: 1, noConsent: 2 });
    expect(body.users.map((u: { email: string }) => u.email)).toEqual(["ada@example.org", "bob@example.org", "cy@example.org"]);
  });

  test("GET /api/admin/users.csv: only consenting users; columns, quoting and neutralisation cell by cell", async () => {
    await ctx.deps.database.query(sql`insert into users (email, first_name, consent, source) values ('dee@example.org', 'Bob, "the builder"', true, '+33 source')`);
    const res = await get("/api/admin/users.csv");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="users-2026-06-21.csv"');
    const rows = await csv(res);
    expect(rows.map((r) => r[2])).toEqual(["Email", "ada@example.org", "dee@example.org"]);
    expect(rows[1]).toEqual(["Ada", `'=HYPERLINK("http://x")`, "ada@example.org", "2026-06-01T10:00:00.000Z", "2026-06-21T10:00:00.000Z", "3", "yes", "sign-in"]);
    expect(rows[2].slice(0, 3)).toEqual(['Bob, "the builder"', "", "dee@example.org"]);
    expect(rows[2][6]).toBe("yes");
    expect(rows[2][7]).toBe("'+33 source");
  });

  test("GET /api/admin/users.csv: lines end with \\n, never CRLF", async () => {
    const text = await (await get("/api/admin/users.csv")).text();
    expect(text).not.toContain("\r");
    expect(text).toBe('First Name,Last Name,Email,First Seen,Last Seen,Verifications,Consent,Source\nAda,"\'=HYPERLINK(""http://x"")",ada@example.org,2026-06-01T10:00:00.000Z,2026-06-21T10:00:00.000Z,3,yes,sign-in\n');
  });

  test("an empty users table gives the header alone", async () => {
    await resetDatabase(ctx.deps.database);
    expect(await csv(await get("/api/admin/users.csv"))).toEqual([["First Name", "Last Name", "Email", "First Seen", "Last Seen", "Verifications", "Consent", "Source"]]);
  });
});

describe("POST /api/admin/users/erase", () => {
  const erase = (body: unknown) => ctx.request("/api/admin/users/erase", { method: "POST", headers: { ...ADMIN_KEY_HEADER, "content-type": "application/json" }, body: JSON.stringify(body) });

  test("nothing names the email afterwards; every figure is unchanged; the log has no email", async () => {
    await seedUsers();
    await seedEngagement(ctx.deps.database, [
      { key: "a", session: "s-ada", at: T, email: "ada@example.org" },
      { key: "a", action: "calendar_sync", session: "s-ada", at: plus(T, 1), email: "ada@example.org" },
      { key: "a", session: "s-bob", at: T, email: "bob@example.org" },
    ]);
    await seedDiscovery(ctx.deps.database, [{ action: "search", session: "s-ada", at: T, query: "house", email: "ada@example.org" }]);
    await ctx.deps.database.query(sql`insert into session_genre_preferences (session_id, genre, email, score) values ('sid-ada', 'house', 'ada@example.org', 9), ('sid-bob', 'house', 'bob@example.org', 1)`);
    const before = await (await get("/api/admin/insights")).json();

    const res = await erase({ email: "  ADA@example.org " });
    expect(res.status).toBe(200);
    expect((await res.json()).erased).toEqual({ users: 1, verifications: 1, genrePreferences: 5, engagementRows: 2, discoveryRows: 1, submissions: 0, orders: 0, messages: 0 });
    const sessionRows = await ctx.deps.database.query<{ email: string }>(sql`select email from session_genre_preferences`);
    expect(sessionRows.map((r) => r.email)).toEqual(["bob@example.org"]);

    const after = await (await get("/api/admin/insights")).json();
    expect({ ...after, discovery: { ...after.discovery, topGenres: [] } }).toEqual({ ...before, discovery: { ...before.discovery, topGenres: [] } });
    const [left] = await ctx.deps.database.query<{ n: number }>(sql`
      select (select count(*) from users where email = 'ada@example.org') + (select count(*) from user_verifications where email = 'ada@example.org')
        + (select count(*) from genre_preferences where email = 'ada@example.org') + (select count(*) from engagement_interactions where user_email = 'ada@example.org')
        + (select count(*) from discovery_interactions where user_email = 'ada@example.org') as n`);
    expect(Number(left.n)).toBe(0);
    // The rollups never held it: no row of any insights_* table names the email.
    const tables = await ctx.deps.database.query<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_name like 'insights_%'`);
    expect(tables.length).toBeGreaterThan(5);
    for (const { table_name } of tables) {
      const [named] = await ctx.deps.database.query<{ n: number }>(sql.raw(`select count(*) as n from "${table_name}" t where row_to_json(t)::text like '%ada@example.org%'`));
      expect({ table_name, n: Number(named.n) }).toEqual({ table_name, n: 0 });
    }
    const [bob] = await ctx.deps.database.query<{ n: number }>(sql`select count(*) as n from engagement_interactions where user_email = 'bob@example.org'`);
    expect(Number(bob.n)).toBe(1);
    const logs = JSON.stringify(ctx.logs);
    expect(logs).toContain("Personal data erased");
    expect(logs).not.toContain("ada@example.org");
  });

  test("an unknown email erases nothing and says so with zeros", async () => {
    expect((await (await erase({ email: "nobody@example.org" })).json()).erased).toEqual({ users: 0, verifications: 0, genrePreferences: 0, engagementRows: 0, discoveryRows: 0, submissions: 0, orders: 0, messages: 0 });
  });

  for (const body of [{}, { email: "" }, { email: "not-an-email" }, { email: ["a@b.co"] }, { email: "<script>@x" }, "raw"]) {
    test(`bad body ${JSON.stringify(body)} → 400`, async () => {
      const res = await erase(body);
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    });
  }
});
