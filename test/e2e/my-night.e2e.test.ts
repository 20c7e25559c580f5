// "My night" and the offline pack in Chromium, on a phone and a desktop, with the app clock and the
// browser clock at 21:30 on 21 June (Paris), and the "Finished" divider of that moment: saving from cards and the modal (local storage, and
// one anonymous night_save / night_unsave beacon per change), /my-night filled from storage and listed in time order, the share link
// opening the same night in another browser, the .ics download parsed with ical.js (one
// calendar_sync per event, and none for saving), a shared link without JavaScript, and the
// service worker: after one visit, with the server stopped, the calendar and My night still open
// with "Offline, last updated 21:30". The server is stopped by the last test.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import ICAL from "ical.js";
import type { BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { collectConsoleErrors, newContext, screenshot, festivalSheetApp, useBrowserApp, VIEWPORTS } from "../helpers/browser.ts";
import { nightEvents } from "../../src/pages/my-night/night.ts";
import { hasEnded } from "../../src/lib/events/filter-moment.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const STORAGE_KEY = "finder:my-night:v1";

const { ctx, server, browser } = useBrowserApp(festivalSheetApp(AT, 120));

const TIMEOUT = 90_000;
const url = (path: string) => `${server.url}${path}`;

async function open(viewport: keyof typeof VIEWPORTS, options: { javaScriptEnabled?: boolean; clipboard?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, viewport, options);
  if (options.clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  await page.clock.setFixedTime(AT);
  return { context, page };
}

const storedKeys = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "[]") as string[], STORAGE_KEY);
const stopKeys = (page: Page) => page.locator("ol.night-list > li.night-stop").evaluateAll((items) => items.map((li) => li.getAttribute("data-event-key")!));
/** The calendar_sync records written so far (the beacons' bodies are not visible to the test browser). */
async function calendarSyncs(): Promise<Array<{ event_key: string; source: string }>> {
  await ctx.deps.tracking.flush();
  return ctx.deps.database.query(sql.raw("select event_key, source from engagement_interactions where action_type = 'calendar_sync'"));
}

/** The My-night records written so far, in order. */
async function nightRows(): Promise<Array<{ event_key: string; action_type: string; session_id: string | null; path: string | null; user_email: string | null; source: string | null }>> {
  await ctx.deps.tracking.flush();
  return ctx.deps.database.query(sql.raw("select event_key, action_type, session_id, path, user_email, source from engagement_interactions where action_type in ('night_save', 'night_unsave') order by id"));
}

/** The keys of the live events in time order, as the page must list them. */
async function inTimeOrder(keys: string[]): Promise<string[]> {
  return nightEvents((await ctx.deps.events.load()).events, keys).events.map((event) => event.eventKey);
}

describe("my night", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    test(`${viewport}: save from cards and the modal, then My night lists them in time order`, async () => {
      const { context, page } = await open(viewport);
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(url("/"));
        const cards = page.locator("#results ol.event-list > li > article.card");
        const save = (i: number) => cards.nth(i).locator("[data-save]");
        await save(0).waitFor({ state: "visible" });
        expect(await save(0).innerText()).toBe("Save");
        const keys = await cards.evaluateAll((all) => all.slice(0, 4).map((card) => card.getAttribute("data-event-key")!));
        const nightBefore = (await nightRows()).length;
        // Cards 3, 0 and 1 from the list, then card 2 from its modal.
        await save(3).click();
        await save(0).click();
        await save(1).click();
        expect(await save(0).innerText()).toBe("Saved");
        await cards.nth(2).locator(".card-link").click();
        const modalSave = page.locator("#event-modal [data-save]");
        await modalSave.waitFor({ state: "visible" });
        await modalSave.click();
        expect(await modalSave.innerText()).toBe("Saved");
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.querySelector("#event-modal"));
        expect(await save(2).innerText()).toBe("Saved");
        expect(await storedKeys(page)).toEqual([keys[3], keys[0], keys[1], keys[2]]);
        expect(await page.locator("[data-my-night-count]").innerText()).toBe("4");
        // Unsave one and save it again: the count follows.
        await save(1).click();
        expect(await page.locator("[data-my-night-count]").innerText()).toBe("3");
        await save(1).click();
        // Saving is not a calendar sync: it is counted as My-night saves, without any session.
        await Bun.sleep(300);
        expect(await calendarSyncs()).toEqual([]);
        const night = (await nightRows()).slice(nightBefore);
        expect(night.filter((r) => r.action_type === "night_save").map((r) => r.event_key).sort()).toEqual([keys[3], keys[0], keys[1], keys[2], keys[1]].sort());
        expect(night.filter((r) => r.action_type === "night_unsave").map((r) => r.event_key)).toEqual([keys[1]]);
        expect(night.every((r) => r.session_id === null && r.path === null && r.user_email === null && r.source === "save_button")).toBe(true);

        await page.locator("[data-my-night-link]").click();
        await page.waitForURL(/\/my-night\?e=/);
        expect(new URL(page.url()).searchParams.get("e")).toBe((await storedKeys(page)).join(","));
        const expected = await inTimeOrder(keys);
        expect(await stopKeys(page)).toEqual(expected);
        expect(await page.locator("[data-night-route]").count()).toBeGreaterThan(0);
        expect(await page.locator("[data-night-shared]").isVisible()).toBe(false);
        if (viewport === "phone") await screenshot(page, "my-night-phone");
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, TIMEOUT);
  }

  test("desktop: the share link opens the same night in another browser, which can save it; the .ics holds every event", async () => {
    const { context, page } = await open("desktop", { clipboard: true });
    try {
      await page.goto(url("/"));
      const keys = await page.locator("#results article.card").evaluateAll((all) => all.slice(5, 8).map((card) => card.getAttribute("data-event-key")!));
      await page.evaluate(([storage, list]) => localStorage.setItem(storage, JSON.stringify(list)), [STORAGE_KEY, keys] as const);
      await page.goto(url("/my-night"));
      await page.waitForURL(/\/my-night\?e=/);
      const expected = await inTimeOrder(keys);
      expect(await stopKeys(page)).toEqual(expected);

      // Share: the button copies the absolute link (a desktop has no native share sheet).
      await page.getByRole("button", { name: "Share my night" }).click();
      await page.waitForFunction(() => document.getElementById("share-status")?.textContent === "Link copied");
      const shared = await page.evaluate(() => navigator.clipboard.readText());
      expect(shared).toBe(`http://finder.test/my-night?e=${expected.join(",")}`);

      // The .ics: one download, one VEVENT per event in time order, one calendar_sync per event.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download .ics" }).click()]);
      expect(download.suggestedFilename()).toBe("my-night.ics");
      const calendar = new ICAL.Component(ICAL.parse(readFileSync((await download.path())!, "utf8")));
      const uids = calendar.getAllSubcomponents("vevent").map((v) => String(v.getFirstPropertyValue("uid")).split("@")[0]);
      expect(uids).toEqual(expected);
      let syncs = await calendarSyncs();
      for (let waited = 0; syncs.length < expected.length && waited < 10_000; waited += 100) {
        await Bun.sleep(100);
        syncs = await calendarSyncs();
      }
      expect(syncs.map((row) => row.event_key).sort()).toEqual([...expected].sort());
      expect(new Set(syncs.map((row) => row.source))).toEqual(new Set(["my_night_calendar"]));

      // Another phone opens the shared link (same path on this server): same night, offered to save.
      const other = await open("phone");
      try {
        await other.page.goto(url(new URL(shared).pathname + new URL(shared).search));
        expect(await stopKeys(other.page)).toEqual(expected);
        const offer = other.page.locator("[data-night-shared]");
        await offer.waitFor({ state: "visible" });
        await other.page.getByRole("button", { name: "Save these to my night" }).click();
        await other.page.waitForFunction(() => document.querySelector("[data-night-shared]")?.hasAttribute("hidden"));
        expect(await storedKeys(other.page)).toEqual(expected);
        // The header count follows the saved list a moment later (the module script updates it after the save).
        await other.page.waitForFunction(() => (document.querySelector("[data-my-night-count]")?.textContent ?? "") !== "", undefined, { timeout: 5000 }).catch(() => {});
        expect(await other.page.locator("[data-my-night-count]").innerText()).toBe(String(expected.length));
      } finally {
        await other.context.close();
      }
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("phone, JavaScript off: a shared night still lists its events; there are no Save buttons to press", async () => {
    const keys = (await ctx.deps.events.load()).events.slice(10, 13).map((event) => event.eventKey);
    const { context, page } = await open("phone", { javaScriptEnabled: false });
    try {
      await page.goto(url(`/my-night?e=${keys.join(",")},evt_nolongerlisted01`));
      expect(await stopKeys(page)).toEqual(await inTimeOrder(keys));
      await page.getByText("1 saved event is no longer listed and was left out.").waitFor();
      expect(await page.locator("[data-save]").first().isVisible()).toBe(false);
      await page.goto(url("/"));
      expect(await page.locator("#results [data-save]").first().isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  }, TIMEOUT);
});

describe("finished divider", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    test(`${viewport}: at 21:30 the events that have ended sit below "Finished", the others above it`, async () => {
      const { context, page } = await open(viewport);
      try {
        await page.goto(url("/"));
        // 60 of the 120 events (19 and 20 June) have ended: the divider comes after card 60, on page 3.
        for (let shown = 25; shown < 75; shown += 25) {
          await page.locator("[data-show-more]").click();
          await page.waitForFunction((n) => document.querySelectorAll("#results ol.event-list > li > article.card").length === n, shown + 25);
        }
        const items = await page.locator("#results ol.event-list > li").evaluateAll((lis) => lis.map((li) => (li.classList.contains("finished-divider") ? "divider" : li.classList.contains("show-more") ? "more" : `${li.classList.contains("is-finished") ? "finished" : "open"}:${li.querySelector("article")?.getAttribute("data-event-key")}`)));
        const divider = items.indexOf("divider");
        expect(divider).toBe(60);
        expect(items.filter((item) => item === "divider")).toHaveLength(1);
        const events = new Map((await ctx.deps.events.load()).events.map((event) => [event.eventKey, event]));
        for (const [i, item] of items.entries()) {
          if (i === divider || !item.includes(":")) continue;
          const [state, key] = item.split(":");
          expect(state).toBe(i < divider ? "open" : "finished");
          expect(hasEnded(events.get(key)!, AT)).toBe(i > divider);
        }
        expect(await page.locator(".finished-divider").isVisible()).toBe(true);
      } finally {
        await context.close();
      }
    }, TIMEOUT);
  }
});

describe("offline", () => {
  /** One visit online: the worker takes control and keeps the page, its static files and (after a save) My night. */
  async function visitOnce(page: Page, path: string): Promise<{ cards: number; saved: string[] }> {
    await page.goto(url(path));
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await page.waitForFunction(
      async () => {
        const keys = (await (await caches.open("finder-pack-v2")).keys()).map((r) => new URL(r.url).pathname);
        return keys.includes("/") && keys.some((k) => /^\/static\/app\.[0-9a-f]{10}\.js$/.test(k)) && keys.some((k) => /^\/static\/app\.[0-9a-f]{10}\.css$/.test(k));
      },
      undefined,
      { timeout: 30_000, polling: 200 },
    );
    const cards = await page.locator("#results article.card").count();
    await page.locator("#results article.card [data-save]").first().click();
    const saved = await storedKeys(page);
    await page.waitForFunction(async () => !!(await (await caches.open("finder-pack-v2")).match("/my-night")), undefined, { timeout: 30_000, polling: 200 });
    // Nothing but the two pages, the offline page, events' details and fingerprinted static files.
    const cachedPaths = await page.evaluate(async () => (await (await caches.open("finder-pack-v2")).keys()).map((r) => new URL(r.url).pathname));
    expect(cachedPaths.every((p) => p === "/" || p === "/my-night" || p === "/offline" || /^\/offline-pack\/(listed|saved)\/evt_[a-z0-9]+$/.test(p) || /^\/static\/.+\.[0-9a-f]{10}\.[a-z0-9]+$/.test(p))).toBe(true);
    return { cards, saved };
  }

  test("phone and desktop: after one visit the calendar and My night open with the server stopped, saying when they were last updated", async () => {
    const phone = await open("phone");
    const desktop = await open("desktop");
    const errors = [...collectConsoleErrors(phone.page), ...collectConsoleErrors(desktop.page)];
    try {
      const onPhone = await visitOnce(phone.page, "/");
      // The desktop's last calendar page is a filtered one: that is the copy it keeps.
      const onDesktop = await visitOnce(desktop.page, "/?when=tonight");

      await server.stop();
      expect(await fetch(url("/")).then(() => "answered", () => "refused")).toBe("refused");

      for (const [{ page }, visit, path] of [[phone, onPhone, "/"], [desktop, onDesktop, "/?when=tonight"]] as const) {
        await page.goto(url(path));
        const notice = page.locator("[data-offline-notice]");
        await notice.waitFor({ state: "visible" });
        expect(await notice.innerText()).toBe("Offline, last updated 21:30");
        expect(await page.locator("#results article.card").count()).toBe(visit.cards);
        // The stylesheet came from the worker too: the page is laid out, not bare HTML.
        expect(await page.locator(".card").first().evaluate((el) => getComputedStyle(el).borderRadius)).not.toBe("0px");
        // My night, from the worker's copy (the script puts the saved keys in the address first).
        await page.goto(url("/my-night"));
        await page.waitForURL(/\/my-night\?e=/);
        await page.locator("[data-offline-notice]").waitFor({ state: "visible" });
        expect(await stopKeys(page)).toEqual(visit.saved);
      }
      await phone.page.goto(url("/"));
      await phone.page.locator("[data-offline-notice]").waitFor({ state: "visible" });
      await screenshot(phone.page, "offline-home-phone");
      // The desktop's "/" opens its kept page (Tonight: the stored filters and the kept copy agree).
      await desktop.page.goto(url("/"));
      await desktop.page.locator("[data-offline-notice]").waitFor({ state: "visible" });
      expect(await desktop.page.locator("#quick-chips [data-quick=tonight]").getAttribute("aria-current")).toBe("true");
      expect(errors.filter((e) => !/Failed to load resource|net::ERR/.test(e))).toEqual([]);
    } finally {
      await phone.context.close();
      await desktop.context.close();
    }
  }, TIMEOUT);
});
