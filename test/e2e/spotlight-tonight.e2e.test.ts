// The spotlight on festival night, in Chromium on a phone in French, with the app clock and the
// browser clock at 21:30 on 21 June (Paris): every spotlight card is one of tonight's events that
// has not ended (never a 20 June event, never the 09:00 yoga or the 16:00 choir), the three-day
// garden shows as its day 3, and a paid spotlight booked on the garden's first day keeps its slot
// and shows day 3 with its badge. The fixture sheet (test mode) holds 20 June events, ended 21 June
// events and the 19–21 June garden, curated like the 20 June brunch.

import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createClock } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { spotlightSchedule } from "../../src/lib/db/schema/index.ts";
import { translate } from "../../src/lib/i18n/index.ts";
import { hasEnded } from "../../src/lib/events/filter-moment.ts";
import type { LiveEvent } from "../../src/lib/sheet/types.ts";

const AT = new Date("2026-06-21T19:30:00Z"); // 21:30 in Paris
const { ctx, server, browser } = useBrowserApp({ clock: createClock(AT), env: { DEFAULT_LANGUAGE: undefined } });
const TIMEOUT = 90_000;

interface SpotlightCard {
  key: string;
  name: string;
  date: string;
  time: string;
  tags: string[];
  featured: boolean;
}

async function spotlightCards(page: Page): Promise<SpotlightCard[]> {
  return page.locator("#spotlight article.card").evaluateAll((cards) =>
    cards.map((card) => ({
      key: card.getAttribute("data-event-key") ?? "",
      name: card.querySelector(".card-link")?.textContent?.trim() ?? "",
      date: card.querySelector(".card-date")?.textContent?.trim() ?? "",
      time: card.querySelector(".card-when")?.childNodes[1]?.textContent?.trim() ?? "",
      tags: Array.from(card.querySelectorAll(".card-tags li"), (li) => li.textContent?.trim() ?? ""),
      featured: card.querySelector(".badge-featured") !== null,
    })),
  );
}

async function openPhone(path: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  await page.clock.setFixedTime(AT);
  const errors = collectConsoleErrors(page);
  await page.goto(`${server.url}${path}`);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
  return { page, errors, close: () => context.close() };
}

function eventsByKey(events: readonly LiveEvent[]): Map<string, LiveEvent> {
  return new Map(events.map((event) => [event.eventKey, event]));
}

describe("spotlight at 21:30 on 21 June (phone, French)", () => {
  test("only tonight's events not yet ended; the three-day garden as day 3", async () => {
    const events = (await ctx.deps.events.load()).events;
    const byKey = eventsByKey(events);
    // The fixture has what the bug showed: 20 June events, and 21 June events already over.
    expect(events.some((e) => e.date === "2026-06-20" && e.curated)).toBe(true);
    expect(events.some((e) => e.date === "2026-06-21" && hasEnded(e, AT))).toBe(true);

    const { page, errors, close } = await openPhone("/");
    try {
      const cards = await spotlightCards(page);
      expect(cards.length).toBe(3);
      for (const card of cards) {
        const event = byKey.get(card.key)!;
        expect(event.date).toBe("2026-06-21");
        expect(hasEnded(event, AT)).toBe(false);
        expect(card.date).toBe("dim. 21 juin");
      }
      await screenshot(page, "spotlight-tonight-phone-fr");
      expect(errors).toEqual([]);
    } finally {
      await close();
    }

    // Only the garden matches: the spotlight shows its occurrence of today, not day 1 or 2.
    const garden = await openPhone("/?q=batignolles");
    try {
      const cards = await spotlightCards(garden.page);
      expect(cards.map((c) => [c.name, c.date, c.time])).toEqual([["Batignolles Sound Garden", "dim. 21 juin", "14:00–22:00"]]);
      expect(cards[0].tags).toContain(translate("fr", "event.seriesDay", { index: 3, total: 3 }));
      // The list below still holds days 1 and 2, under "Finished".
      expect(await garden.page.locator("#results article.card").count()).toBe(3);
      expect(garden.errors).toEqual([]);
    } finally {
      await garden.close();
    }
  }, TIMEOUT);

  test("a paid spotlight booked on the garden's first day keeps its slot and shows day 3 with its badge", async () => {
    await ctx.deps.db.insert(spotlightSchedule).values({
      eventKey: "evt_fixture000006",
      requestedStartAt: new Date(AT.getTime() - 3600e3),
      effectiveStartAt: new Date(AT.getTime() - 3600e3),
      effectiveEndAt: new Date(AT.getTime() + 3600e3),
      slot: 1,
    });
    await ctx.deps.invalidation.invalidate({ paths: ["/"], tags: ["live-events"] });
    const { page, errors, close } = await openPhone("/?dn=night");
    try {
      const cards = await spotlightCards(page);
      expect(cards.length).toBe(3);
      expect(cards[0].name).toBe("Batignolles Sound Garden");
      expect(cards[0].date).toBe("dim. 21 juin");
      expect(cards[0].featured).toBe(true);
      expect(cards[0].tags).toContain(translate("fr", "event.seriesDay", { index: 3, total: 3 }));
      expect(await page.locator("#spotlight article.card").first().locator(".badge-featured").textContent()).toBe(translate("fr", "event.featured"));
      const byKey = eventsByKey((await ctx.deps.events.load()).events);
      for (const card of cards.slice(1)) {
        const event = byKey.get(card.key)!;
        expect([event.date, hasEnded(event, AT)]).toEqual(["2026-06-21", false]);
      }
      // Opening the spotlight card opens today's occurrence in the modal.
      await page.locator("#spotlight article.card .card-link").first().click();
      await page.locator("#event-modal[open]").waitFor();
      const modal = (await page.locator("#event-modal").textContent()) ?? "";
      expect(modal).toContain("dim. 21 juin");
      expect(modal).toContain("jour 3 sur 3");
      await screenshot(page, "spotlight-paid-phone-fr");
      expect(errors).toEqual([]);
    } finally {
      await close();
      await ctx.deps.db.delete(spotlightSchedule);
    }
  }, TIMEOUT);
});
