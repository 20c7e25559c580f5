// In Chromium, on a desktop and a phone viewport: sign in, open /admin/insights, see the twelve
// tiles and the daily chart, switch the window from 30 to 7 days and see the series shrink, sort
// the event table. Screenshots go to test/e2e/screenshots.

import { describe, expect, test } from "bun:test";
import { createClock, TEST_ADMIN_KEY } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { plus, seedDiscovery, seedEngagement, type EngagementSeed } from "../helpers/insights.ts";

const { ctx, server, browser } = useBrowserApp({
  clock: createClock("2026-06-21T20:00:00Z"),
  seed: async (ctx) => {
    const rows: EngagementSeed[] = [];
    const keys = ["evt_fixture000001", "evt_fixture000002", "evt_fixture000004", "evt_fixture000005"];
    for (let day = 0; day < 28; day++) {
      const base = new Date(Date.UTC(2026, 5, 21 - day, 10)).toISOString();
      for (let i = 0; i < 3 + ((day * 7) % 11); i++) {
        rows.push({ key: keys[i % 4], session: `s${day}-${i}`, at: plus(base, i * 60) });
        if (i % 3 === 0) rows.push({ key: keys[i % 4], action: "outbound_click", session: `s${day}-${i}`, at: plus(base, i * 60 + 5) });
        if (i % 4 === 0) rows.push({ key: keys[i % 4], action: "calendar_sync", session: `s${day}-${i}`, at: plus(base, i * 60 + 9) });
      }
    }
    await seedEngagement(ctx.deps.database, rows);
    await seedDiscovery(ctx.deps.database, [
      { action: "search", session: "d1", at: "2026-06-21T10:00:00Z", query: "afro house" },
      { action: "search", session: "d2", at: "2026-06-21T10:00:00Z", query: "afrohouse" },
      { action: "filter_apply", session: "d1", at: "2026-06-21T10:00:00Z", group: "genre", value: "house" },
    ]);
  },
});

describe("insights page in the browser", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: tiles and chart, window switch, sorting`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}/admin/login?next=/admin/insights`);
        await page.getByLabel("Admin Key").fill(TEST_ADMIN_KEY);
        await page.getByRole("button", { name: "Enter Console" }).click();
        await page.waitForURL(`${server.url}/admin/insights`);

        const stats = page.locator("#insights-stats");
        await stats.getByRole("heading", { name: "Last 30 days" }).waitFor();
        await expect(stats.locator(".tile").count()).resolves.toBe(12);
        const chart = stats.getByRole("img", { name: "Daily engagement (Paris days)" });
        await expect(chart.isVisible()).resolves.toBe(true);
        const box = await chart.boundingBox();
        expect(box!.width).toBeGreaterThan(250);
        expect(box!.height).toBeGreaterThan(80);
        await expect(stats.locator("tbody tr").count()).resolves.toBe(31);
        await page.locator("#insights-discovery").getByText("afro house").first().waitFor();
        await page.locator("#insights-events").getByText("Canal Amapiano Sunset").waitFor();
        await screenshot(page, `insights-30-${viewport}`);

        await page.getByRole("radio", { name: "7 days" }).check();
        await page.waitForURL(/windowDays=7/);
        await stats.getByRole("heading", { name: "Last 7 days" }).waitFor();
        await expect(stats.locator("tbody tr").count()).resolves.toBe(8);
        await expect(page.getByRole("radio", { name: "7 days" }).isChecked()).resolves.toBe(true);

        // Every block has loaded (no placeholder left) before interacting with the table.
        await page.waitForFunction(() => document.querySelectorAll("[aria-busy=true]").length === 0);
        const events = page.locator("#insights-events");
        const link = events.getByRole("link", { name: "Calendar" });
        await link.scrollIntoViewIfNeeded();
        await link.click();
        await events.locator('th[aria-sort="descending"]').getByText("Calendar").waitFor();
        await screenshot(page, `insights-7-${viewport}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
