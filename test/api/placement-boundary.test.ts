// The boundary timer on the real clock: a spotlight scheduled to start shortly shows on the cached
// homepage once its start passes, because the timer drops the cached page at the boundary (no
// request or invalidation in between). No duration is asserted: how late the timer fires on a
// loaded machine is not the rule; that the page is dropped at the boundary is.

import { expect, test } from "bun:test";
import { TEST_ADMIN_KEY, type TestClock, useTestApp } from "../helpers/app.ts";

// The real clock's pace, read from 10 June 2026 on: before that edition's window, so the homepage
// lists the fixture's June events (docs/editions.md) while the timer waits real time.
const SHIFT_MS = Date.parse("2026-06-10T12:00:00Z") - Date.now();
const realClock: TestClock = { now: () => new Date(Date.now() + SHIFT_MS), set: () => {}, advance: () => {} };
const ctx = useTestApp({ clock: realClock });

const spotlightCount = (html: string) => (/<section id="spotlight"[\s\S]*?<\/section>/.exec(html)?.[0].match(/evt_fixture000012/g) ?? []).length;

test("at a spotlight's start the timer drops the cached / (it then shows the spotlight), and re-arms for its end", async () => {
  const first = await ctx.request("/");
  expect(first.headers.get("x-cache")).toBe("MISS");
  expect(spotlightCount(await first.text())).toBe(0);

  const start = new Date(realClock.now().getTime() + 1500);
  const res = await ctx.request("/api/admin/placements/spotlight", {
    method: "POST",
    headers: { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" },
    // On the real clock the fixture's June events have ended: confirmed.
    body: JSON.stringify({ eventKey: "evt_fixture000012", startAt: start.toISOString(), durationHours: 1, confirm: true }),
  });
  expect(res.status).toBe(201);
  await Bun.sleep(50);
  expect(ctx.deps.placementTimer.next()?.toISOString()).toBe(start.toISOString());

  // Cached again before the start: no spotlight yet.
  expect(spotlightCount(await (await ctx.request("/")).text())).toBe(0);
  expect((await ctx.request("/")).headers.get("x-cache")).toBe("HIT");

  // Wait (bounded) for the timer to fire and re-arm for the end, without touching the page.
  const end = new Date(start.getTime() + 3_600_000).toISOString();
  for (let i = 0; i < 300 && ctx.deps.placementTimer.next()?.toISOString() !== end; i++) await Bun.sleep(100);
  expect(ctx.deps.placementTimer.next()?.toISOString()).toBe(end);

  // The cached page was dropped at the boundary: rendered afresh, with the spotlight.
  const after = await ctx.request("/");
  expect(after.headers.get("x-cache")).toBe("MISS");
  expect(spotlightCount(await after.text())).toBeGreaterThan(0);
});
