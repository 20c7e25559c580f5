// "Report a problem" in Chromium on a phone in French: open an event, send a report without
// choosing what is wrong (the inline error, swapped by htmx), then a real one (the thanks);
// and the same form with JavaScript switched off (a page with the thanks and a link back).

import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { translate } from "../../src/lib/i18n/index.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";

// The production default: French at /, as these French visitors read it.
const { ctx, server, browser } = useBrowserApp({ env: { DEFAULT_LANGUAGE: undefined } });
const BROWSER_TEST_MS = 90_000;
const fr = (key: Parameters<typeof translate>[1]) => translate("fr", key);

describe("report a problem in the browser", () => {
  test("phone, French, with htmx: the inline error, then the thanks; the report is stored", async () => {
    await ctx.deps.database.query(sql`truncate event_reports, rate_limit_counters`);
    const context = await newContext(browser, "phone", { locale: "fr-FR" });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/`);
      await page.locator('#results article[data-event-key="evt_fixture000001"] .card-link').click();
      const dialog = page.getByRole("dialog", { name: "Canal Amapiano Sunset" });
      await dialog.waitFor();
      // The focus trap keeps "Report a problem" in the Tab cycle: Shift+Tab from the first control
      // reaches it (the last one while it is closed), and Enter opens it.
      await dialog.locator("[data-share-url]").focus();
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SUMMARY");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => (document.getElementById("event-report") as HTMLDetailsElement).open);
      const send = dialog.getByRole("button", { name: fr("report.send") });
      await send.scrollIntoViewIfNeeded();
      await expect(dialog.locator('input[name="formStartedAt"]').inputValue()).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
      // The report's idempotency key: stamped when the section opens, kept by the form the refusal shows again.
      const key = await dialog.locator("input[data-idempotency-key]").inputValue();
      expect(key).toMatch(/^[0-9a-f]{32}$/);

      await send.click();
      await dialog.getByText(fr("report.issue.kind")).waitFor();
      await expect(dialog.locator("input[data-idempotency-key]").inputValue()).resolves.toBe(key);
      await screenshot(page, "report-error-phone-fr");

      await dialog.getByRole("radio", { name: fr("report.kind.cancelled") }).check();
      await dialog.getByLabel(fr("report.text")).fill("Scène fermée à cause de la pluie");
      await dialog.getByRole("button", { name: fr("report.send") }).click();
      const thanks = dialog.getByText(fr("report.thanks"));
      await thanks.waitFor();
      // Focus moves on htmx:load, which comes once the swap settles, a moment after the text shows.
      await page.waitForFunction(() => document.activeElement?.matches("[data-report-notice]") === true, undefined, { timeout: 5_000 }).catch(() => {});
      expect(await thanks.evaluate((el) => el === document.activeElement)).toBe(true);
      await screenshot(page, "report-thanks-phone-fr");

      const rows = await ctx.deps.database.query<Record<string, any>>(sql`select event_key, kind, text, status, idempotency_key from event_reports`);
      expect(rows).toEqual([{ event_key: "evt_fixture000001", kind: "cancelled", text: "Scène fermée à cause de la pluie", status: "open", idempotency_key: key }]);
      // The 400 that htmx swapped is reported by Chromium as a failed load; nothing else may appear.
      expect(errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);

  test("phone, French, without JavaScript: the form posts and a page thanks and links back to the event", async () => {
    await ctx.deps.database.query(sql`truncate event_reports, rate_limit_counters`);
    const context = await newContext(browser, "phone", { locale: "fr-FR", javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/?event=evt_fixture000002`);
      await page.getByText(fr("report.title")).click();
      await page.getByRole("radio", { name: fr("report.kind.wrong_place") }).check();
      await page.getByRole("button", { name: fr("report.send") }).click();
      await page.waitForURL(`${server.url}/event/evt_fixture000002/report`);
      await page.getByText(fr("report.thanks")).waitFor();
      await page.getByRole("heading", { level: 1, name: "Belleville Rooftop House" }).waitFor();
      await page.getByRole("link", { name: fr("report.backToEvent") }).click();
      await page.getByRole("dialog", { name: "Belleville Rooftop House" }).waitFor();
      const rows = await ctx.deps.database.query<Record<string, any>>(sql`select event_key, kind from event_reports`);
      expect(rows).toEqual([{ event_key: "evt_fixture000002", kind: "wrong_place" }]);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
});
