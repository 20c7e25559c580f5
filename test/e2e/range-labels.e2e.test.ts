// The price and age sliders in Chromium: dragging a thumb shows the label the server computed for
// that range (the page script only looks it up in the labels sent with the form), and without
// JavaScript the server-rendered label of the query is there.

import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { ageLabels, priceLabels, rangeLabel } from "../../src/lib/events/filter-labels.ts";
import { collectConsoleErrors, newContext, openFilterSection, useBrowserApp } from "../helpers/browser.ts";

const { server, browser } = useBrowserApp();

const BROWSER_TEST_MS = 60_000;

async function openPreferences(page: Page): Promise<void> {
  await openFilterSection(page, "Preferences");
}

/** The label and both thumbs' screen-reader texts of a slider. */
async function shown(page: Page, param: "pr" | "ag"): Promise<{ label: string; min: string | null; max: string | null }> {
  const group = page.locator(`[data-range="${param}"]`);
  return {
    label: (await group.locator(".range-label").textContent())?.trim() ?? "",
    min: await group.locator(`input[name="${param}_min"]`).getAttribute("aria-valuetext"),
    max: await group.locator(`input[name="${param}_max"]`).getAttribute("aria-valuetext"),
  };
}

/** What a slider shows once the page has settled (each key press also reloads the results). */
async function settled(page: Page, param: "pr" | "ag", expected: Awaited<ReturnType<typeof shown>>): Promise<Awaited<ReturnType<typeof shown>>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const now = await shown(page, param);
    // Settled also means the results request is over: the next move would otherwise replace it
    // (htmx aborts the older request and logs that abort as a console error).
    const idle = await page.evaluate(() => document.querySelector(".htmx-request") === null);
    if ((idle && JSON.stringify(now) === JSON.stringify(expected)) || Date.now() > deadline) return now;
    await Bun.sleep(50);
  }
}

describe("range sliders in the browser", () => {
  test("moving a thumb shows the server's label for the new range", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/`);
      await openPreferences(page);
      expect(await shown(page, "pr")).toEqual({ label: "Any price", min: "Free", max: "No limit" });

      // One move per thumb: each move also reloads the results, whose answer puts the form in its state.
      await page.locator('input[name="pr_max"]').fill("140");
      const expected = { label: rangeLabel(priceLabels("en"), { min: 0, max: 140 }), min: "Free", max: "€140" };
      expect(await settled(page, "pr", expected)).toEqual(expected);
      expect(expected.label).toBe("Free - €140");

      await page.locator('input[name="pr_min"]').fill("5");
      const narrowed = { label: rangeLabel(priceLabels("en"), { min: 5, max: 140 }), min: "€5", max: "€140" };
      expect(await settled(page, "pr", narrowed)).toEqual(narrowed);

      await page.locator('input[name="ag_min"]').focus();
      await page.keyboard.press("ArrowRight");
      const age = { label: rangeLabel(ageLabels("en"), { min: 19, max: 25 }), min: "Age 19", max: "No limit" };
      expect(await settled(page, "ag", age)).toEqual(age);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);

  test("the label is looked up in the labels the server sent, not computed by the page", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/`);
      await openPreferences(page);
      // Labels sent differently (as another language would be) are the ones the slider shows.
      await page.evaluate(() => {
        const group = document.querySelector('[data-range="ag"]')!;
        const labels = JSON.parse(group.getAttribute("data-labels")!);
        labels.from = labels.from.map((text: string) => text.replace("Age", "Âge"));
        group.setAttribute("data-labels", JSON.stringify(labels));
      });
      await page.locator('input[name="ag_max"]').focus();
      await page.keyboard.press("ArrowLeft");
      const tampered = { label: "Âge 18 - 24", min: "Age 18", max: "Age 24" };
      expect(await settled(page, "ag", tampered)).toEqual(tampered);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);

  test("without JavaScript the server renders the label of the query's ranges", async () => {
    const context = await newContext(browser, "phone", { javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/?pr=10:40&ag=20:25`);
      expect(await shown(page, "pr")).toEqual({ label: "€10 - €40", min: "€10", max: "€40" });
      expect(await shown(page, "ag")).toEqual({ label: "Age 20+", min: "Age 20", max: "No limit" });
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
  test("a reply that arrives while a thumb is still held leaves it where the visitor holds it; the release sends the new range", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldRequests = 0;
    try {
      await page.goto(`${server.url}/`);
      await openPreferences(page);
      // The first results request waits until the test lets it go.
      await page.route(
        (url) => url.pathname === "/" && url.searchParams.get("pr_max") === "140",
        async (route) => {
          heldRequests++;
          await held;
          await route.continue();
        },
      );
      await page.locator('input[name="pr_max"]').fill("140");
      await page.waitForFunction(() => document.querySelector(".htmx-request") !== null);
      // The visitor keeps dragging: input events, no change yet (the thumb is not released).
      await page.evaluate(() => {
        const max = document.querySelector<HTMLInputElement>('input[name="pr_max"]')!;
        max.value = "100";
        max.dispatchEvent(new Event("input", { bubbles: true }));
      });
      release();
      await page.waitForURL((url) => url.searchParams.get("pr") === "0:140");
      await page.waitForFunction(() => document.querySelector(".htmx-request, .htmx-settling") === null);
      expect(heldRequests).toBe(1);
      const dragging = { label: rangeLabel(priceLabels("en"), { min: 0, max: 100 }), min: "Free", max: "€100" };
      expect(await shown(page, "pr")).toEqual(dragging);
      expect(await page.locator('input[name="pr_max"]').inputValue()).toBe("100");

      // The release sends the range the thumb shows, and its reply keeps it.
      await page.evaluate(() => document.querySelector('input[name="pr_max"]')!.dispatchEvent(new Event("change", { bubbles: true })));
      await page.waitForURL((url) => url.searchParams.get("pr") === "0:100");
      expect(await settled(page, "pr", dragging)).toEqual(dragging);
      expect(errors).toEqual([]);
    } finally {
      release();
      await context.close();
    }
  }, BROWSER_TEST_MS);
});
