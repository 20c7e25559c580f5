// Offline that answers, in Chromium on a phone with the app clock and the browser clock at 21:30 on
// 21 June (Paris): after one visit (the calendar, one event opened from a share link and saved),
// with the server stopped, the details of every listed event open from the service worker, the
// saved event opens from My night (an event page built from the kept calendar and its kept details),
// an event whose details were not kept says so in its card instead of failing silently, and
// /submit-event and /feature-event show the offline page instead of the browser's error. The cache
// holds only what the worker keeps, under its versioned name. The server is stopped by the last test.

import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { collectConsoleErrors, newContext, screenshot, festivalSheetApp, useBrowserApp } from "../helpers/browser.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const CACHE = "finder-pack-v2";
const TIMEOUT = 120_000;

const { ctx, server, browser } = useBrowserApp(festivalSheetApp(AT, 120));

const url = (path: string) => `${server.url}${path}`;
const listedKeys = (page: Page) => page.locator("#results ol.event-list > li > article.card").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-event-key")!));
const cachedPaths = (page: Page) => page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname), CACHE);

/** Waits until the worker's cache holds every path given (polled from here: the worker keeps them in the background). */
async function waitForKept(page: Page, paths: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  let missing = paths;
  while (Date.now() < deadline) {
    const kept = await cachedPaths(page);
    missing = paths.filter((p) => !kept.includes(p));
    if (missing.length === 0) return;
    await Bun.sleep(250);
  }
  throw new Error(`the worker did not keep ${missing.join(", ")}`);
}

/**
 * What the worker answers for an event's details (the htmx request a card sends), and whether it
 * is the worker's kept copy (it carries the time it was kept), not the browser's HTTP cache.
 */
function detailsAnswer(page: Page, key: string): Promise<{ status: number; hasKey: boolean; kept: boolean } | "failed"> {
  return page.evaluate(
    (k) =>
      fetch(`/?event=${k}`, { headers: { "HX-Request": "true" } }).then(
        async (r) => ({ status: r.status, hasKey: (await r.text()).includes(`data-event-key="${k}"`), kept: r.headers.has("x-finder-saved-at") }),
        () => "failed" as const,
      ),
    key,
  );
}

describe("offline after one visit", () => {
  test("phone: listed and saved events open offline, a detail that was not kept says so in place, forms get the offline page", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    await page.clock.setFixedTime(AT);
    try {
      // One visit: the calendar, then an event that is not on its first page, opened from its share
      // link and saved (it is kept as a saved event, not as a listed one).
      await page.goto(url("/"));
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      const listed = await listedKeys(page);
      expect(listed.length).toBe(25);
      await waitForKept(page, ["/", "/offline", ...listed.map((k) => `/offline-pack/listed/${k}`)]);
      const all = (await ctx.deps.events.load()).events;
      const other = all.find((event) => !listed.includes(event.eventKey))!;
      await page.goto(url(`/event/${other.eventKey}/${other.slug}`));
      const modalSave = page.locator("#event-modal [data-save]");
      await modalSave.waitFor({ state: "visible" });
      await modalSave.click();
      await waitForKept(page, ["/my-night", `/offline-pack/saved/${other.eventKey}`]);

      // Only what the worker keeps, within its bounds.
      const paths = await cachedPaths(page);
      expect(paths.every((p) => ["/", "/my-night", "/offline"].includes(p) || /^\/offline-pack\/(listed|saved)\/evt_[a-z0-9]+$/.test(p) || /^\/static\/.+\.[0-9a-f]{10}\.[a-z0-9]+$/.test(p))).toBe(true);
      expect(paths.filter((p) => p.startsWith("/offline-pack/listed/")).length).toBeLessThanOrEqual(100);
      expect(await page.evaluate(() => caches.keys())).toEqual([CACHE]);

      await server.stop();
      expect(await fetch(url("/")).then(() => "answered", () => "refused")).toBe("refused");

      // The calendar from the worker's copy, and the first card's details in the modal.
      await page.goto(url("/"));
      await page.locator("[data-offline-notice]").waitFor({ state: "visible" });
      const firstCard = page.locator("#results ol.event-list > li > article.card").first();
      const firstTitle = (await firstCard.locator(".card-title").innerText()).trim();
      await firstCard.locator(".card-link").click();
      const modal = page.locator("#event-modal");
      await modal.waitFor({ state: "visible" });
      expect((await modal.locator("#event-modal-title").innerText()).trim()).toContain(firstTitle);
      expect(await modal.getAttribute("data-event-key")).toBe(listed[0]);
      await screenshot(page, "offline-details-phone");
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !document.querySelector("#event-modal"));
      // Every listed event's details answer from the worker.
      for (const key of listed) expect(await detailsAnswer(page, key)).toEqual({ status: 200, hasKey: true, kept: true });

      // An event whose details were not kept: its card says so, and the page says it is offline.
      const lastKey = listed[listed.length - 1]!;
      await page.evaluate(async ({ name, key }) => (await caches.open(name)).delete(`/offline-pack/listed/${key}`), { name: CACHE, key: lastKey });
      const lastCard = page.locator(`#results article.card[data-event-key="${lastKey}"]`);
      await lastCard.locator(".card-link").click();
      await lastCard.locator("[data-offline-inline]").waitFor({ state: "visible" });
      expect(await lastCard.locator("[data-offline-inline]").innerText()).toContain("details were not saved");
      expect(await page.locator("#event-modal").count()).toBe(0);

      // The saved event from My night: its stop links to its share page, built offline.
      await page.goto(url("/my-night"));
      await page.waitForURL(/\/my-night\?e=/);
      await page.locator("[data-offline-notice]").waitFor({ state: "visible" });
      await page.locator(`li.night-stop[data-event-key="${other.eventKey}"] .night-name a`).click();
      await page.waitForURL(new RegExp(`/event/${other.eventKey}/`));
      const savedModal = page.locator("#event-modal");
      await savedModal.waitFor({ state: "visible" });
      expect(await savedModal.getAttribute("data-event-key")).toBe(other.eventKey);
      expect((await savedModal.locator("#event-modal-title").innerText()).trim()).toContain(other.eventName);
      await page.locator("[data-offline-notice]").waitFor({ state: "visible" });

      // The forms: the offline page, not the browser's connection error.
      for (const path of ["/submit-event", "/feature-event", "/sign-in"]) {
        const response = await page.goto(url(path));
        expect(response?.status()).toBe(200);
        expect(await page.locator("h1").innerText()).toBe("You are offline");
        expect(await page.locator("[data-offline-retry]").isVisible()).toBe(true);
      }
      await screenshot(page, "offline-submit-phone");
      // htmx logs the failed request of the card whose details were not kept (that is the point).
      expect(errors.filter((e) => !/Failed to load resource|net::ERR|FetchEvent|^htmx:(sendError|afterRequest)/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, TIMEOUT);
});
