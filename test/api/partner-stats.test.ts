import { beforeEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { engagementInteractions } from "../../src/lib/db/schema/index.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";
import { PARTNER_CSV_COLUMNS, percent } from "../../src/lib/partners/stats.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };

async function activation(body: Record<string, unknown> = {}) {
  const res = await ctx.request("/api/admin/orders/test", { method: "POST", headers: KEY, body: JSON.stringify({ eventKey: "evt_fixture000001", tier: "spotlight", startAt: "2026-06-18T12:00", durationHours: 24, ...body }) });
  const json = (await res.json()) as any;
  return { id: json.order.id as string, token: json.statsUrl ? new URL(json.statsUrl).searchParams.get("token")! : "", order: json.order };
}

/** Engagement rows: [action, session, minutes after 10:00Z (the window opens at 10:00Z, Paris 12:00), key?]. */
async function track(rows: [string, string | null, number, string?][]) {
  const base = new Date("2026-06-18T10:00:00Z").getTime();
  await ctx.deps.db.insert(engagementInteractions).values(rows.map(([actionType, sessionId, minutes, key]) => ({ eventKey: key ?? "evt_fixture000001", actionType, sessionId, recordedAt: new Date(base + minutes * 60_000) })));
}

function get(id: string, query: string) {
  return ctx.request(`/api/partner-stats/${id}${query}`);
}

describe("GET /api/partner-stats/:id", () => {
  test("metrics over [start, end) of the fulfilled window, rates with one decimal", async () => {
    const { id, token } = await activation();
    await track([
      ["click", "s1", 0],
      ["click", "s1", 5],
      ["click", "s2", 10],
      ["click", "s3", 20],
      ["click", null, 30],
      ["outbound_click", "s1", 6],
      ["calendar_sync", "s2", 11],
      ["calendar_sync", "s4", 12],
      ["click", "s9", -1], // before the window
      ["click", "s9", 24 * 60], // at the end: excluded
      ["click", "s8", 50, "evt_fixture000002"], // another event
    ]);
    const res = await get(id, `?token=${token}`);
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await res.json()).toEqual({
      success: true,
      data: {
        activationId: id,
        eventKey: "evt_fixture000001",
        eventName: "Canal Amapiano Sunset",
        tier: "spotlight",
        range: { startAt: "2026-06-18T10:00:00.000Z", endAt: "2026-06-19T10:00:00.000Z" },
        metrics: {
          clickCount: 5,
          outboundClickCount: 1,
          calendarSyncCount: 2,
          uniqueSessionCount: 4,
          uniqueViewSessionCount: 3,
          uniqueOutboundSessionCount: 1,
          uniqueCalendarSessionCount: 2,
          outboundSessionRate: 33.3,
          calendarSessionRate: 66.7,
          outboundInteractionRate: 20,
          calendarInteractionRate: 40,
          myNightSaveCount: 0,
        },
      },
    });
  });

  test("errors in order: 400 no token, 404 unknown id, 403 wrong token, 409 not activated; deleted order → 404", async () => {
    const { id, token } = await activation();
    const expectError = async (res: Response, status: number, error: string) => {
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ success: false, error });
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cache-control")).toBe(NO_STORE_HEADERS["cache-control"]!);
    };
    await expectError(await get("00000000-0000-4000-8000-000000000000", ""), 400, "Token required");
    await expectError(await get(id, "?token=%20%20"), 400, "Token required");
    await expectError(await get("00000000-0000-4000-8000-000000000000", `?token=${token}`), 404, "Partner stats record not found");
    await expectError(await get("not-a-uuid", `?token=${token}`), 404, "Partner stats record not found");
    // Change the last digit to a different one (a fixed "0" would equal a token that ends in 0).
    const wrongLast = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0");
    expect(wrongLast).not.toBe(token);
    await expectError(await get(id, `?token=${wrongLast}`), 403, "Invalid partner stats token");
    await expectError(await get(id, `?token=${token.toUpperCase()}`), 403, "Invalid partner stats token");

    const pending = await activation({ fulfil: false });
    await expectError(await get(pending.id, "?token=anything"), 403, "Invalid partner stats token");

    // Each admin step must succeed, so a failure names the step rather than the statistics answer.
    const dismissed = await ctx.request(`/api/admin/orders/${id}`, { method: "PATCH", headers: KEY, body: JSON.stringify({ status: "dismissed" }) });
    expect(`${dismissed.status} ${dismissed.status === 200 ? "" : await dismissed.text()}`).toBe("200 ");
    await expectError(await get(id, `?token=${token}`), 409, "Activation not fulfilled yet");
    const deleted = await ctx.request(`/api/admin/orders/${id}`, { method: "DELETE", headers: KEY });
    expect(`${deleted.status} ${deleted.status === 200 ? "" : await deleted.text()}`).toBe("200 ");
    await expectError(await get(id, `?token=${token}`), 404, "Partner stats record not found");
  });

  test("CSV: exactly two lines, 18 columns (my_night_saves last), integers and one-decimal rates, attachment name", async () => {
    const { id, token } = await activation();
    await track([
      ["click", "a", 1],
      ["click", "b", 2],
      ["click", "c", 3],
      ["outbound_click", "a", 4],
    ]);
    const res = await get(id, `?token=${token}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="partner-stats-evt_fixture000001.csv"');
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const text = await res.text();
    expect(text.split("\n")).toHaveLength(3);
    expect(text.endsWith("\n")).toBe(true);
    const parsed = Papa.parse<string[]>(text.trimEnd());
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual([...PARTNER_CSV_COLUMNS]);
    expect(parsed.data[1]).toEqual([id, "evt_fixture000001", "Canal Amapiano Sunset", "spotlight", "2026-06-18T10:00:00.000Z", "2026-06-19T10:00:00.000Z", "3", "1", "0", "3", "3", "1", "0", "33.3", "0.0", "33.3", "0.0", "0"]);
    // Any other format answers JSON.
    expect(((await (await get(id, `?token=${token}&format=xml`)).json()) as any).success).toBe(true);
  });

  test("the tier is the fulfilled tier; the event name falls back to the order's name when the key left the live events", async () => {
    const { id, token } = await activation({ tier: "promoted" });
    await ctx.deps.database.query(sql`update paid_orders set fulfilled_event_key = 'evt_gone', event_name = 'Old Name' where id = ${id}`);
    const body = (await (await get(id, `?token=${token}`)).json()) as any;
    expect(body.data).toMatchObject({ tier: "promoted", eventKey: "evt_gone", eventName: "Old Name" });
    await ctx.deps.database.query(sql`update paid_orders set event_name = null where id = ${id}`);
    expect(((await (await get(id, `?token=${token}`)).json()) as any).data.eventName).toBe("evt_gone");
  });

  test("the page: figures, window, chart, CSV link; never cached, no referrer; errors as pages with the same status", async () => {
    const { id, token } = await activation();
    await track([
      ["click", "a", 1],
      ["calendar_sync", "a", 2],
      ["click", "b", 60 * 15],
    ]);
    const res = await ctx.request(`/partner-stats/${id}?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe(NO_STORE_HEADERS["cache-control"]!);
    const html = await res.text();
    expect(html).toContain("Canal Amapiano Sunset");
    expect(html).toContain("Window: 18/06/2026, 12:00 - 19/06/2026, 12:00 (Paris time)");
    expect(html).toContain("Spotlight");
    expect(html).toContain(`href="/api/partner-stats/${id}?token=${token}&format=csv"`);
    expect(html).toContain("<th scope=\"row\">2026-06-18</th><td>1</td><td>0</td><td>1</td>");
    expect(html).toContain("<th scope=\"row\">2026-06-19</th><td>1</td><td>0</td><td>0</td>");
    // The daily chart is the shared one (as on the insights page): an SVG image, one line per figure.
    expect(html).toContain('<svg viewBox="0 0 720 260" role="img" aria-labelledby="daily-chart-title daily-chart-desc"');
    expect(html).toContain('<title id="daily-chart-title">Views, outbound clicks and calendar additions per Paris day</title>');
    expect(html.match(/<polyline/g)).toHaveLength(3);
    const denied = await ctx.request(`/partner-stats/${id}?token=nope`);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("Invalid partner stats token");
    expect((await ctx.request(`/partner-stats/${id}`)).status).toBe(400);
  });
});

describe("the partner report page as the domain describes it", () => {
  const page = async (id: string, token: string) => {
    const res = await ctx.request(`/partner-stats/${id}?token=${token}`);
    expect(res.status).toBe(200);
    return res.text();
  };
  test("kicker \"Partner ROI\" above the event name and its tier badge", async () => {
    const { id, token } = await activation();
    const html = await page(id, token);
    expect(html).toMatch(/<p class="eyebrow">Partner ROI<\/p><h1>Canal Amapiano Sunset<\/h1><p class="partner-stats-meta"><span class="badge">Spotlight<\/span><\/p>/);
  });
  test("the \"Event key: …\" line and \"Window: <start> - <end>\" in Paris time", async () => {
    const { id, token } = await activation();
    const html = await page(id, token);
    expect(html).toContain('<p class="partner-stats-key">Event key: evt_fixture000001</p>');
    expect(html).toContain('<p class="partner-stats-window">Window: 18/06/2026, 12:00 - 19/06/2026, 12:00 (Paris time)</p>');
  });
  test("seven cards (My-night saves and calendar additions apart) with session rates, then the click-based interaction rates, one decimal each", async () => {
    const { id, token } = await activation();
    await track([
      ["click", "a", 1],
      ["click", "b", 2],
      ["click", "c", 3],
      ["outbound_click", "a", 4],
      ["calendar_sync", "a", 5],
      ["calendar_sync", "b", 6],
    ]);
    const html = await page(id, token);
    const labels = [...html.matchAll(/<span class="stat-label">([^<]+)<\/span>/g)].map((m) => m[1]);
    expect(labels).toEqual(["Views", "Outbound", "My-night saves", "Calendar additions", "Unique Sessions", "Outbound CVR", "Calendar CVR"]);
    expect(html).toContain('<span class="stat-value">33.3%</span><span class="stat-label">Outbound CVR</span>');
    expect(html).toContain('<span class="stat-value">66.7%</span><span class="stat-label">Calendar CVR</span>');
    expect(html).toContain("Interaction rate (click-based): Outbound 33.3% • Calendar 66.7%");
    expect(html).toContain("<strong>Private report.</strong>");
  });
  test("errors: \"Token required\" without a token; \"Stats unavailable\" with the reason and a link to /feature-event otherwise", async () => {
    const { id } = await activation();
    const missing = await ctx.request(`/partner-stats/${id}`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("<h1>Token required</h1>");
    for (const [path, status, reason] of [
      [`/partner-stats/${id}?token=wrong`, 403, "Invalid partner stats token"],
      ["/partner-stats/00000000-0000-4000-8000-000000000000?token=x", 404, "Partner stats record not found"],
    ] as const) {
      const res = await ctx.request(path);
      expect(res.status).toBe(status);
      const html = await res.text();
      expect(html).toContain("<h1>Stats unavailable</h1>");
      expect(html).toContain(reason);
      expect(html).toContain('href="/feature-event"');
    }
  });
  test("the page lists the placement's own events: booked, start, end, and the emails sent", async () => {
    const { id, token } = await activation();
    const html = await page(id, token);
    const moments = [...html.matchAll(/<li><time datetime="[^"]+">([^<]+)<\/time> <span>([^<]+)<\/span><\/li>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(moments).toHaveLength(3);
    expect(moments).toContain("18/06/2026, 12:00 Placement booked");
    expect(moments).toContain("18/06/2026, 12:00 Placement started");
    expect(moments.at(-1)).toBe("19/06/2026, 12:00 Placement ends");
  });
});

test("percent: half-up to one decimal, 0 on a zero denominator, capped at 100", () => {
  expect([percent(1, 3), percent(2, 3), percent(0, 0), percent(5, 0), percent(1, 8), percent(3, 2), percent(1, 16)]).toEqual([33.3, 66.7, 0, 0, 12.5, 100, 6.3]);
});
