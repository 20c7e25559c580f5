// /feature-event in Chromium on a phone: clean load, the status block arrives through htmx with the
// slots badge, the countdown ticks with the browser clock, and the sticky Book Spotlight bar shows.

import { expect, test } from "bun:test";
import { createClock } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { spotlightSchedule } from "../../src/lib/db/schema/index.ts";

const start = new Date();

const { ctx, server, browser } = useBrowserApp({
  clock: createClock(start),
  seed: async (ctx) => {
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_fixture000001", requestedStartAt: start, effectiveStartAt: new Date(start.getTime() - 3600_000), effectiveEndAt: new Date(start.getTime() + 3600_000), slot: 1 });
  },
});

test("phone: status loads with the slots badge, the countdown ticks, the sticky bar is shown", async () => {
  const context = await newContext(browser, "phone");
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.clock.install({ time: start });
    await page.goto(`${server.url}/feature-event`);
    const badge = page.locator(".slots-badge");
    await badge.waitFor();
    expect(await badge.textContent()).toBe("2/3 spotlight slots left");
    const countdown = page.locator("[data-countdown-end]").first();
    // Stop the page clock 15 s after the start, then let 2 s run: the label follows every second.
    await page.clock.pauseAt(new Date(start.getTime() + 15_000));
    expect(await countdown.textContent()).toBe("Live · ends in 0h 59m 45s");
    await page.clock.runFor(2000);
    expect(await countdown.textContent()).toBe("Live · ends in 0h 59m 43s");
    expect(await page.getByText("See which spotlight places are free").count()).toBe(0); // htmx swapped the placeholder
    await screenshot(page, "feature-event-phone");
    // Past the end the entry turns into a recently ended one and its slot is free again.
    await page.clock.fastForward("01:00:30");
    await page.waitForFunction(() => document.querySelector("[data-countdown-end]")?.textContent === "Ended 0h 0m ago");
    expect(await page.locator(".spotlight-entry .spotlight-state").first().textContent()).toBe("Ended");
    expect(await badge.textContent()).toBe("3/3 spotlight slots left");
    expect(await page.getByRole("link", { name: "Book Spotlight" }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
