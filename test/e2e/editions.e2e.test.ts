// The editions through the year, in a real browser (docs/editions.md, "The public site through the
// year"): /fr/ on a 390×844 phone over the sample sheet (events dated 19–22 June 2026), with the app
// clock and the browser clock at three instants (Paris time):
// - 7 December 2026 12:00, off season: the hero leads with the coming edition (lundi 21 juin 2027),
//   says the 2026 edition is over, and its link (a real tap) opens the 2026 archive, every day with
//   its year and "Cette édition est terminée"; no card of June 2026 and no date without a year on the
//   homepage; the countdown, kept by the page script, counts the days to 21 June 2027;
// - 18 June 2026 10:00, the window open before the night: the 2026 programme, no edition lead;
// - 21 June 2026 21:30, the night itself: cards, the "Ce soir" and "En ce moment" chips, no lead.
// Each instant renders fresh: the app clock is set and the homepage's renders dropped before the visit.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { createClock } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const DECEMBER = new Date("2026-12-07T11:00:00Z"); // 12:00 in Paris
const JUNE_18 = new Date("2026-06-18T08:00:00Z"); // 10:00 in Paris
const NIGHT = new Date("2026-06-21T19:30:00Z"); // 21:30 in Paris
const TIMEOUT = 90_000;

const { ctx, server, browser } = useBrowserApp({
  clock: createClock(JUNE_18),
  env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" },
  seed: async (ctx) => {
    const csv = readFileSync(new URL("../../data/events.csv", import.meta.url), "utf8");
    const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-upload", origin: "manual", now: JUNE_18 });
    if (!saved.ok) throw new Error(saved.error);
  },
});

/** The app and the browser at `at`, every cached render of the homepage and the archive dropped; a phone page in French. */
async function phoneAt(at: Date): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  ctx.clock.set(at);
  ctx.deps.renderCache.invalidate({ paths: ["/", "/fr/", "/2026/", "/fr/2026/"], tags: ["live-events", "editions"] });
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.clock.setFixedTime(at);
  return { page, errors, close: () => context.close() };
}

/** Opens /fr/ and waits for the page's scripts. */
async function openHome(page: Page, path = "/fr/"): Promise<void> {
  const response = await page.goto(`${server.url}${path}`);
  expect(response!.status()).toBe(200);
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
}

/** The date of each listed event, by event key (the sheet as the app reads it). */
async function datesByKey(): Promise<Map<string, string>> {
  const read = await ctx.deps.events.load();
  return new Map(read.events.map((event) => [event.eventKey, event.date]));
}

const flat = (text: string) => text.replace(/\s+/g, " ").trim();
const cards = (page: Page) => page.locator("article.card");
const cardKeys = (page: Page) => cards(page).evaluateAll((list) => list.map((card) => card.getAttribute("data-event-key") ?? ""));

describe("the editions through the year, /fr/ on a phone", () => {
  test("7 December 2026: the coming edition leads, 2026 is over and one tap from its archive", async () => {
    const { page, errors, close } = await phoneAt(DECEMBER);
    try {
      await openHome(page);
      // The lead names the coming night in full and the edition that is over.
      const lead = page.locator("main .edition-lead");
      expect(await lead.isVisible()).toBe(true);
      expect(flat(await lead.locator(".edition-next").innerText())).toBe("Prochaine édition : lundi 21 juin 2027");
      const over = lead.locator(".edition-over");
      expect(flat(await over.innerText())).toStartWith("L'édition 2026 est terminée.");
      const archiveLink = over.locator("a");
      expect(new URL(await archiveLink.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe("/fr/2026/");
      // The lead is the first thing of the hero after the intro: above the search and the chips.
      const leadTop = await lead.evaluate((el) => el.getBoundingClientRect().top);
      const searchTop = await page.locator("main .hero form, main .hero [role=search]").first().evaluate((el) => el.getBoundingClientRect().top);
      expect(leadTop).toBeLessThan(searchTop);

      // No event of June 2026 on the homepage: no card at all (the sheet has only June 2026).
      const dates = await datesByKey();
      const keys = await cardKeys(page);
      expect(keys.filter((key) => (dates.get(key) ?? "").startsWith("2026-"))).toEqual([]);
      expect(keys).toEqual([]);
      const mainText = await page.locator("main").innerText();
      for (const name of ["Riverside Soca Warm-Up", "Le Sentier Jazz-Funk Night"]) expect(mainText).not.toContain(name);

      // No date without its year: every "… juin" shown in the page's body is 21 June 2027 (the
      // header's countdown and the banner, outside <main>, name the coming night on their own).
      const juneMentions = [...flat(mainText).matchAll(/(?:\d{1,2}(?:er)?\s*[–-]\s*)?\d{1,2}(?:er)?\s+juin(?:\s+\d{4})?/gi)].map((m) => m[0]);
      expect(juneMentions.length).toBeGreaterThan(0); // the lead's own date, at least
      expect(juneMentions.filter((mention) => !/\b2027\b/.test(mention))).toEqual([]);
      // 2026 is named only where the lead says that edition is over.
      expect(flat(mainText).replace(flat(await over.innerText()), "")).not.toContain("2026");

      // The countdown, drawn by the page script on the browser's clock, counts to 21 June 2027 00:00.
      const countdown = page.locator(".site-header [data-countdown]");
      expect(await countdown.getAttribute("data-countdown")).toBe("2027-06-21");
      expect(await countdown.isVisible()).toBe(true);
      await page.waitForFunction(() => /^\d+ j \d+ h \d{2} min$/.test(document.querySelector(".countdown-value")?.textContent?.trim() ?? ""));
      expect(flat(await countdown.locator(".countdown-value").innerText())).toBe("195 j 12 h 00 min");

      await screenshot(page, "editions-home-7-december-phone");

      // A real tap on the archive link opens the 2026 archive: its days, each with the year, and the edition marked over.
      await archiveLink.click();
      await page.waitForURL(`${server.url}/fr/2026/`);
      const archive = page.locator("main.archive");
      expect(await archive.getAttribute("data-edition")).toBe("2026");
      expect(await archive.getAttribute("data-edition-state")).toBe("past");
      expect(flat(await page.locator("main h1").innerText())).toBe("Fête de la Musique 2026");
      expect(flat(await page.locator(".archive-state").innerText())).toContain("Cette édition est terminée");
      const days = await page.locator(".archive-day").evaluateAll((sections) => sections.map((s) => s.getAttribute("data-date")));
      expect(days).toEqual(["2026-06-19", "2026-06-20", "2026-06-21", "2026-06-22"]);
      const headings = await page.locator(".archive-day-title").allInnerTexts();
      expect(headings.length).toBe(4);
      for (const heading of headings) expect(heading).toMatch(/\b(19|20|21|22) juin 2026\b/);
      const items = page.locator(".archive-event");
      const listed = await items.count();
      expect(listed).toBe([...dates.values()].filter((date) => date.startsWith("2026-")).length);
      expect(await page.locator(".archive-event-finished").count()).toBe(listed);
      const itemDates = await page.locator(".archive-event-date").evaluateAll((spans) => spans.map((s) => (s.textContent ?? "").trim()));
      for (const date of itemDates) expect(date).toMatch(/ juin 2026$/);
      expect(await page.locator(".archive-event-title", { hasText: "Riverside Soca Warm-Up" }).count()).toBe(1);
      await screenshot(page, "editions-archive-2026-phone");
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("18 June 2026 10:00: the 2026 programme, no edition lead", async () => {
    const { page, errors, close } = await phoneAt(JUNE_18);
    try {
      await openHome(page);
      expect(await page.locator(".edition-lead").count()).toBe(0);
      const mainText = await page.locator("main").innerText();
      expect(mainText).not.toContain("terminée");
      expect(mainText).not.toContain("Prochaine édition");
      const keys = await cardKeys(page);
      expect(keys.length).toBeGreaterThan(0);
      const dates = await datesByKey();
      // Every card is an event of 2026 (its key read back from the sheet), dated 19–22 June.
      for (const key of keys) expect(dates.get(key)).toMatch(/^2026-06-(19|20|21|22)$/);
      const shown = await page.locator("#results article.card .card-date").evaluateAll((spans) => spans.map((s) => (s.textContent ?? "").trim()));
      expect(shown.length).toBeGreaterThan(0);
      for (const label of shown) expect(label).toMatch(/\b(19|20|21|22) juin$/);
      // The countdown counts to this year's night.
      expect(await page.locator("[data-countdown]").getAttribute("data-countdown")).toBe("2026-06-21");
      await page.waitForFunction(() => document.querySelector(".countdown-value")?.textContent?.trim() === "2 j 14 h 00 min");
      await screenshot(page, "editions-home-18-june-phone");
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("21 June 2026 21:30: the festival night as it always was", async () => {
    const { page, errors, close } = await phoneAt(NIGHT);
    try {
      await openHome(page);
      expect(await page.locator(".edition-lead").count()).toBe(0);
      expect(await page.locator("main").innerText()).not.toContain("terminée");
      expect(await page.locator("#results article.card").count()).toBeGreaterThan(0);
      const chips = await page.locator("#quick-chips a.moment-chip").evaluateAll((links) => links.map((a) => (a.textContent ?? "").replace(/\s+/g, " ").trim()));
      expect(chips).toContain("En ce moment");
      expect(chips).toContain("Ce soir");
      expect(await page.locator("#quick-chips [data-quick=now]").isVisible()).toBe(true);
      expect(await page.locator("#quick-chips [data-quick=tonight]").isVisible()).toBe(true);
      expect(await page.locator(".quick-note").count()).toBe(0);
      expect(flat(await page.locator(".countdown-value").innerText())).toBe("Aujourd'hui");
      await screenshot(page, "editions-home-21-june-2130-phone");
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);
});
