// /submit-event in Chromium: an invalid proof link shows its inline error, a corrected form shows the
// thanks line and a fresh form; with htmx (phone and desktop) and with JavaScript switched off.

import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";

const { ctx, server, browser } = useBrowserApp();

async function fillRequired(page: Page, name: string, proofLink: string) {
  await page.getByLabel("Event Name").fill(name);
  await page.getByLabel("Date").fill("2026-06-21");
  await page.getByLabel("Start Time").fill("20:30");
  await page.getByLabel("Location").fill("Canal Saint-Martin, quai de Valmy");
  await page.getByLabel("Host Email").fill("host@example.com");
  await page.getByLabel("Proof Link").fill(proofLink);
}

const THANKS = "Thanks, your event submission has been received for review.";
const LINK_ERROR = "Proof link must be an HTTP(S) URL";

describe("submit an event in the browser", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport} with htmx: inline error, then success and a fresh form`, async () => {
      await ctx.deps.database.query(sql`truncate event_submissions, rate_limit_counters cascade`);
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}/submit-event`);
        await page.getByRole("heading", { name: "Submit Your Event" }).waitFor();
        const started = page.locator('input[name="formStartedAt"]');
        await expect(started.inputValue()).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
        // The form's idempotency key: stamped when the form appears, kept by the form re-shown after a refusal.
        const keyInput = page.locator("input[data-idempotency-key]");
        const key = await keyInput.inputValue();
        expect(key).toMatch(/^[0-9a-f]{32}$/);

        await fillRequired(page, `Jazz on the Canal (${viewport})`, "javascript:alert(1)");
        await page.getByRole("button", { name: "Submit event" }).click();
        await page.getByText(LINK_ERROR).waitFor();
        expect(page.url()).toBe(`${server.url}/submit-event`);
        await expect(page.getByLabel("Proof Link").getAttribute("aria-invalid")).resolves.toBe("true");
        await expect(page.getByLabel("Event Name").inputValue()).resolves.toBe(`Jazz on the Canal (${viewport})`);
        await expect(keyInput.inputValue()).resolves.toBe(key);
        await screenshot(page, `submit-error-${viewport}`);

        await page.getByLabel("Proof Link").fill("jazz.example/canal");
        await page.getByText("Optional details").click();
        await page.getByLabel("Indoor/Outdoor").selectOption("Outdoor");
        await page.getByRole("button", { name: "Submit event" }).click();
        await page.getByText(THANKS).waitFor();
        await expect(page.getByText(LINK_ERROR).count()).resolves.toBe(0);
        await expect(page.getByLabel("Event Name").inputValue()).resolves.toBe("");
        // The page script stamps the fresh form once the swap settles, a moment after the thanks.
        await page.waitForFunction(() => (document.querySelector('input[name="formStartedAt"]') as HTMLInputElement | null)?.value !== "", undefined, { timeout: 5000 }).catch(() => {});
        await expect(started.inputValue()).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
        // The fresh form is a new submission: a new key.
        const fresh = await keyInput.inputValue();
        expect(fresh).toMatch(/^[0-9a-f]{32}$/);
        expect(fresh).not.toBe(key);
        await screenshot(page, `submit-success-${viewport}`);

        const rows = await ctx.deps.database.query<Record<string, any>>(sql`select status, payload, idempotency_key from event_submissions`);
        expect(rows).toHaveLength(1);
        expect(rows[0].idempotency_key).toBe(key);
        expect(rows[0].status).toBe("pending");
        expect(rows[0].payload).toMatchObject({ proofLink: "https://jazz.example/canal", indoorOutdoor: "Outdoor", date: "2026-06-21", startTime: "20:30" });
        // 4xx answers htmx swaps are reported by Chromium as failed loads; nothing else may appear.
        expect(errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }

  test("without JavaScript: the form posts and the whole page answers, error then success", async () => {
    await ctx.deps.database.query(sql`truncate event_submissions, rate_limit_counters cascade`);
    const context = await newContext(browser, "desktop", { javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/submit-event`);
      await fillRequired(page, "No-JS Brass Band", "ftp://files.example/event");
      await page.getByRole("button", { name: "Submit event" }).click();
      await page.getByText(LINK_ERROR).waitFor();
      await expect(page.getByLabel("Event Name").inputValue()).resolves.toBe("No-JS Brass Band");
      await page.getByLabel("Proof Link").fill("https://brass.example");
      await page.getByRole("button", { name: "Submit event" }).click();
      await page.getByText(THANKS).waitFor();
      await screenshot(page, "submit-success-nojs");
      const rows = await ctx.deps.database.query<Record<string, any>>(sql`select status, spam_signals from event_submissions`);
      expect(rows).toHaveLength(1);
      // No script stamped formStartedAt: no timing signal, so a real host is never flagged.
      expect(rows[0]).toMatchObject({ status: "pending", spam_signals: { completionSeconds: null, reasons: [] } });
    } finally {
      await context.close();
    }
  }, 60_000);
});
