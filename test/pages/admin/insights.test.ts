// /admin/insights through the app: the page with its lazy blocks, each block with and without
// htmx, the event table's search/sort/rows, hostile text escaped, bad parameters, erasure form.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../../helpers/auth.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { plus, seedDiscovery, seedEngagement } from "../../helpers/insights.ts";

const ctx = useTestApp();
const T = "2026-06-21T12:00:00.000Z";
const HX = { ...ADMIN_KEY_HEADER, "hx-request": "true" };

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-21T20:00:00Z");
  await seedEngagement(ctx.deps.database, [
    { key: "evt_fixture000002", session: "s1", at: T },
    { key: "evt_fixture000002", session: "s2", at: plus(T, 10) },
    { key: "evt_fixture000004", session: "s1", at: plus(T, 20) },
    { key: "evt_fixture000004", action: "calendar_sync", session: "s1", at: plus(T, 30) },
    { key: "<script>x</script>", session: "s3", at: plus(T, 40) },
  ]);
  await seedDiscovery(ctx.deps.database, [{ action: "search", session: "s1", at: T, query: "<img src=x onerror=alert(1)>" }]);
});

const get = (path: string, headers: Record<string, string> = ADMIN_KEY_HEADER) => ctx.request(path, { headers });

test("the page: controls with the window checked and one lazy block per figure group", async () => {
  const res = await get("/admin/insights?windowDays=7&cluster=aggressive");
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  const html = await res.text();
  expect(html).toContain("Engagement Stats");
  expect(html).toMatch(/value="7" checked/);
  expect(html).toMatch(/value="aggressive" checked/);
  for (const url of ["/admin/insights/stats?windowDays=7&cluster=aggressive", "/admin/insights/discovery?windowDays=7&cluster=aggressive", "/admin/insights/events?windowDays=7", "/admin/insights/users"]) {
    expect(html).toContain(`hx-get="${url}"`);
  }
  expect(html).toContain('action="/api/admin/insights/audience.csv"');
  expect(html).not.toContain("not available in this version");
});

test("stats block: twelve tiles and the chart as SVG with a data table", async () => {
  const html = await (await get("/admin/insights/stats?windowDays=7", HX)).text();
  expect(html.startsWith('<section id="insights-stats"')).toBe(true);
  for (const label of ["Views", "Deduped Views", "Outbound", "Calendar", "Unique Sessions", "Searches", "Filter Applies", "Discovery Sessions", "Outbound CVR", "Calendar CVR", "Outbound Interaction", "Calendar Interaction"]) {
    expect(html).toContain(`<span class="tile-label">${label}</span>`);
  }
  expect(html.match(/class="tile"/g)).toHaveLength(12);
  expect(html).toContain('<svg viewBox="0 0 720 260" role="img"');
  expect(html.match(/<polyline/g)).toHaveLength(4);
  expect(html).toContain("<th scope=\"row\">2026-06-21</th>");
  // Without htmx the block is a console page of its own.
  const page = await (await get("/admin/insights/stats?windowDays=7")).text();
  expect(page).toContain("<!doctype html>");
  expect(page).toContain("Admin Console");
});

test("discovery block escapes hostile queries", async () => {
  const html = await (await get("/admin/insights/discovery", HX)).text();
  expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  expect(html).not.toContain("<img src=x");
});

describe("event performance table", () => {
  test("live names, escaped unknown keys, sorted by views by default", async () => {
    const html = await (await get("/admin/insights/events?windowDays=30", HX)).text();
    expect(html).toContain("3 of 3 events");
    expect(html.indexOf("Belleville Rooftop House")).toBeLessThan(html.indexOf("Pigalle Hip Hop Cypher"));
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).not.toContain("<script>x");
  });
  test("sort by calendar, search by name or key, rows", async () => {
    const sorted = await (await get("/admin/insights/events?windowDays=30&sort=calendarSyncCount&dir=desc", HX)).text();
    expect(sorted.indexOf("Pigalle")).toBeLessThan(sorted.indexOf("Belleville"));
    expect(sorted).toContain('aria-sort="descending"');
    const searched = await (await get("/admin/insights/events?windowDays=30&q=fixture000004", HX)).text();
    expect(searched).toContain("1 of 3 events");
    const none = await (await get("/admin/insights/events?windowDays=30&q=nothing-like-this", HX)).text();
    expect(none).toContain("No event matches this search.");
    const odd = await get("/admin/insights/events?windowDays=30&rows=7&sort=drop&dir=sideways", HX);
    expect(odd.status).toBe(200);
    expect(await odd.text()).toMatch(/<option value="10" selected/);
  });
});

test("users block: tiles, list and Copy Emails", async () => {
  await ctx.deps.database.query(sql`insert into users (email, first_name, consent) values ('ada@example.org', '<b>Ada</b>', true)`);
  const html = await (await get("/admin/insights/users", HX)).text();
  expect(html).toContain("Unique Users");
  expect(html).toContain("ada@example.org");
  expect(html).toContain("&lt;b&gt;Ada&lt;/b&gt;");
  expect(html).toContain("Copy Emails");
  expect(html).toContain('href="/api/admin/users.csv"');
});

test("Copy Emails holds only the users who consented (the list still shows everyone)", async () => {
  await ctx.deps.database.query(sql`insert into users (email, consent) values ('yes@example.org', true), ('no@example.org', false), ('unasked@example.org', null)`);
  const html = await (await get("/admin/insights/users", HX)).text();
  const box = html.match(/<textarea id="collected-emails"[^>]*>([^<]*)<\/textarea>/)?.[1];
  expect(box).toBe("yes@example.org");
  expect(html).toContain("no@example.org");
  expect(html).toContain("Copy Emails and Export CSV include only the users who consented.");
});

for (const query of ["windowDays=abc", "cluster=fuzzy"]) {
  test(`${query}: 400, no stack trace`, async () => {
    for (const path of ["/admin/insights", "/admin/insights/stats"]) {
      const res = await get(`${path}?${query}`);
      expect(res.status).toBe(400);
      expect(await res.text()).not.toContain("at ");
    }
  });
}

test("without a credential: the login card", async () => {
  const res = await ctx.request("/admin/insights/stats");
  expect(res.status).toBe(401);
  expect(await res.text()).toContain("Admin Access");
});

describe("erase form", () => {
  const post = (fields: Record<string, string>) =>
    ctx.request("/admin/insights/erase", { method: "POST", headers: { ...HX, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  test("without the confirmation: 422, nothing erased", async () => {
    await ctx.deps.database.query(sql`insert into users (email) values ('ada@example.org')`);
    const res = await post({ email: "ada@example.org" });
    expect(res.status).toBe(422);
    const [row] = await ctx.deps.database.query<{ n: number }>(sql`select count(*) as n from users`);
    expect(Number(row.n)).toBe(1);
  });
  test("a bad email: 422 with the message", async () => {
    const res = await post({ email: "<nope>", confirm: "1" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("Enter a valid email address");
  });
  test("confirmed: the counts, the user gone", async () => {
    await ctx.deps.database.query(sql`insert into users (email) values ('ada@example.org')`);
    const res = await post({ email: "ada@example.org", confirm: "1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Erased: 1 account");
    const [row] = await ctx.deps.database.query<{ n: number }>(sql`select count(*) as n from users`);
    expect(Number(row.n)).toBe(0);
  });
});
