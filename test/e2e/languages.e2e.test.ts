// French and English in Chromium (see docs/languages.md, "Addresses"), with the production default
// (French at /, English under /en/). The address decides, never the browser's language: the home
// page, the event modal, its calendar file and the filters in French at /, in English at /en/. The
// FR/EN switch is a plain link to the same page in the other language (the homepage keeps its
// filters), sets no cookie, and the pages' own links, forms and htmx answers stay in the language.
// Expected words come from the catalogues, plus a few literal ones that show Intl's formats.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { dayNightLabel, rangeLabel, priceLabels } from "../../src/lib/events/filter-labels.ts";
import { inLanguage, translate, type Language, type MessageKey } from "../../src/lib/i18n/index.ts";
import { collectConsoleErrors, newContext, openFilterSection, useBrowserApp } from "../helpers/browser.ts";

const { ctx, server, browser } = useBrowserApp({ env: { DEFAULT_LANGUAGE: undefined } });

const BROWSER_TEST_MS = 90_000;

/** Each language with the browser that asks for it, and the words Intl gives the Canal event (21 June, 10th). */
const CASES = [
  { language: "fr", prefix: "", locale: "en-GB", viewport: "phone", day: "dim. 21 juin", area: "10e arrondissement", priceLabel: "Gratuit - 140 €", icsPrice: "Prix : Gratuit" },
  { language: "en", prefix: "/en", locale: "fr-FR", viewport: "desktop", day: "Sun 21 June", area: "10th arrondissement", priceLabel: "Free - €140", icsPrice: "Price: Free" },
] as const;

/** The night toggle's label in a language ("Nuit (après 22:00)"). */
const nightLabel = (language: Language): string => inLanguage(language, () => dayNightLabel("night"));

const other = (language: Language): Language => (language === "fr" ? "en" : "fr");

async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent?.trim() === t, [selector, text] as const, { timeout: 5000 });
}

/** The page is rendered in `language`: the html lang and the catalogue's words for `heading`. */
async function expectPageIn(page: Page, language: Language, heading: MessageKey): Promise<void> {
  await page.getByRole("heading", { level: 1, name: translate(language, heading) }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
}

/** Clicks the FR/EN switch to `language`: the one in the header's navigation, or the footer's. */
async function switchTo(page: Page, language: Language, where: "header" | "footer"): Promise<void> {
  const area = where === "header" ? page.getByRole("navigation").first() : page.getByRole("contentinfo");
  await area.locator(`a[data-language-switch="${language}"]`).click();
}

/** A `lang` cookie in the browser (the former switch's; nothing sets it now). */
async function languageCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === "lang");
}

describe("languages in the browser", () => {
  for (const { language, prefix, locale, viewport, day, area, priceLabel, icsPrice } of CASES) {
    test(`${viewport}, a ${locale} browser at ${prefix}/: home, modal, calendar file and filters in ${language}`, async () => {
      const context = await newContext(browser, viewport, { locale });
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}${prefix}/`);
        await expectPageIn(page, language, "home.heading");
        await waitForText(page, "#result-count", translate(language, "filter.count.available", { count: 14 }));
        expect(await languageCookie(context)).toBeUndefined();

        // The modal: dates and areas by Intl in the language, its buttons from the catalogue.
        await page.locator('#results article[data-event-key="evt_fixture000001"] .card-link').click();
        const dialog = page.getByRole("dialog", { name: "Canal Amapiano Sunset" });
        await dialog.waitFor();
        const text = await dialog.innerText();
        expect(text).toContain(day);
        expect(text).toContain(area);
        const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: translate(language, "event.addToCalendar") }).click()]);
        const ics = readFileSync((await download.path())!, "utf8");
        expect(ics).toContain(icsPrice);
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.getElementById("event-modal"));

        // The filters: toggle labels, the result count and the server-made slider labels.
        await openFilterSection(page, translate(language, "filter.section.dates"));
        await page.getByRole("checkbox", { name: nightLabel(language) }).check();
        await page.waitForURL(`${server.url}${prefix}/?dn=night`);
        await waitForText(page, "#result-count", translate(language, "filter.count.found", { count: 7 }));
        await expect(page.getByRole("link", { name: `${nightLabel(language)} ${translate(language, "home.chips.remove")}` }).count()).resolves.toBe(1);
        await openFilterSection(page, translate(language, "filter.section.preferences"));
        await page.locator('input[name="pr_max"]').fill("140");
        expect(rangeLabel(priceLabels(language), { min: 0, max: 140 })).toBe(priceLabel);
        await waitForText(page, '[data-range="pr"] .range-label', priceLabel);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);
  }

  test("desktop, en-GB browser: the switch to French keeps the filters, sets no cookie, and French holds on the submission form and /feature-event", async () => {
    await ctx.deps.database.query(sql`truncate event_submissions, rate_limit_counters cascade`);
    const context = await newContext(browser, "desktop", { locale: "en-GB" });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/en/?dn=night`);
      await expectPageIn(page, "en", "home.heading");
      await switchTo(page, "fr", "header");
      // The same page with its filters, now in French.
      await page.waitForURL(`${server.url}/?dn=night`);
      await expectPageIn(page, "fr", "home.heading");
      await waitForText(page, "#result-count", translate("fr", "filter.count.found", { count: 7 }));
      expect(await languageCookie(context)).toBeUndefined();

      // The page's own link, its htmx error and its htmx success stay French although the browser asks for English.
      await page.locator(`nav a[href="/submit-event"]`).first().click();
      await page.waitForURL(`${server.url}/submit-event`);
      await expectPageIn(page, "fr", "submit.heading");
      const field = (key: MessageKey) => page.getByLabel(translate("fr", key));
      await field("submit.field.eventName").fill("Chorale du canal");
      await field("submit.field.date").fill("2026-06-21");
      await field("submit.field.startTime").fill("20:30");
      await field("submit.field.location").fill("Canal Saint-Martin, quai de Valmy");
      await field("submit.field.hostEmail").fill("host@example.com");
      await field("submit.field.proofLink").fill("javascript:alert(1)");
      await page.getByRole("button", { name: translate("fr", "submit.send") }).click();
      await page.getByText(translate("fr", "submit.error.proofLink")).waitFor();
      await field("submit.field.proofLink").fill("chorale.example/canal");
      await page.getByRole("button", { name: translate("fr", "submit.send") }).click();
      await page.getByText(translate("fr", "submit.thanks")).waitFor();

      await page.goto(`${server.url}/feature-event`);
      await expectPageIn(page, "fr", "feature.heading");
      await waitForText(page, ".slots-badge", translate("fr", "feature.status.slots", { left: 3, slots: 3 }));
      expect(await page.locator("body").textContent()).toContain(translate("fr", "feature.stickyButton"));

      // And back to English, on the page the switch was on.
      await switchTo(page, "en", "header");
      await page.waitForURL(`${server.url}/en/feature-event`);
      await expectPageIn(page, "en", "feature.heading");
      await waitForText(page, ".slots-badge", translate("en", "feature.status.slots", { left: 3, slots: 3 }));
      // 4xx answers htmx swaps are reported by Chromium as failed loads; nothing else may appear.
      expect(errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);

  test("phone, fr-FR browser: the switch to English, and the pages' links stay in English", async () => {
    const context = await newContext(browser, "phone", { locale: "fr-FR" });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/feature-event`);
      await expectPageIn(page, "fr", "feature.heading");
      await switchTo(page, "en", "footer");
      await page.waitForURL(`${server.url}/en/feature-event`);
      await expectPageIn(page, "en", "feature.heading");
      await waitForText(page, ".slots-badge", translate("en", "feature.status.slots", { left: 3, slots: 3 }));
      expect(await languageCookie(context)).toBeUndefined();
      for (const [path, heading] of [["/en/", "home.heading"], ["/en/submit-event", "submit.heading"]] as const) {
        await page.locator(`a[href="${path}"]`).first().click();
        await page.waitForURL(`${server.url}${path}`);
        await expectPageIn(page, "en", heading);
        // Header and footer both offer the way back.
        expect(await page.locator(`a[data-language-switch="${other("en")}"]`).count()).toBe(2);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
});
