// The boundary timer on the real clock: a spotlight scheduled to start shortly shows on the cached
// homepage within a second of its start, with no request or invalidation in between.

import { expect, test } from "bun:test";
import { TEST_ADMIN_KEY, type TestClock, useTestApp } from "../helpers/app.ts";

const realClock: TestClock = { now: () => new Date(), set: () => {}, advance: () => {} };
const ctx = useTestApp({ clock: realClock });

const spotlightCount = (html: string) => (/<section id="spotlight"[\s\S]*?<\/section>/.exec(html)?.[0].match(/evt_fixture000012/g) ?? []).length;

test("a spotlight appears on / within one second of its start, and the timer then waits for its end", async () => {
  const first = await ctx.request("/");
  expect(first.headers.get("x-cache")).toBe("MISS");
  expect(spotlightCount(await first.text())).toBe(0);

  const start = new Date(Date.now() + 1500);
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

  let seenAt: number | undefined;
  while (Date.now() < start.getTime() + 3000) {
    const html = await (await ctx.request("/")).text();
    if (spotlightCount(html) > 0) {
      seenAt = Date.now();
      break;
    }
    await Bun.sleep(100);
  }
  expect(seenAt).toBeDefined();
  expect(seenAt! - start.getTime()).toBeLessThanOrEqual(1000);
  expect(ctx.deps.placementTimer.next()?.toISOString()).toBe(new Date(start.getTime() + 3_600_000).toISOString());
});
