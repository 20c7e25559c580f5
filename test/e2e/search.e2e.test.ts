// The forgiving search in a real browser: "Did you mean" as a plain link with JavaScript off, and
// the quick chips tracked as filters (five taps on "Ce soir" show up in the insights' Top Filters).

import { expect, test } from "bun:test";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { collectConsoleErrors, newContext, useBrowserApp } from "../helpers/browser.ts";

const { ctx, server, browser } = useBrowserApp({ env: { DEFAULT_LANGUAGE: undefined } });

test("without JavaScript: a misspelt search offers 'Vous vouliez dire Kompa ?' and the link lists the event", async () => {
  const context = await newContext(browser, "phone", { javaScriptEnabled: false, locale: "fr-FR" });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/?q=kmpoa`);
    expect(await page.locator("#results .count-badge").textContent()).toBe("0");
    const link = page.locator("[data-did-you-mean]");
    expect(await page.locator(".did-you-mean").textContent()).toBe("Vous vouliez dire Kompa ? (1 événement)");
    await link.click();
    await page.waitForURL(`${server.url}/?q=Kompa`);
    expect(await page.locator("#results .card-title").allTextContents()).toEqual(["Montparnasse Zouk & Kompa"]);
    expect(await page.locator("[data-did-you-mean]").count()).toBe(0);
  } finally {
    await context.close();
  }
}, 60_000);

test("with JavaScript: typing a misspelt word offers the respelling; its link swaps the results and the search box", async () => {
  const context = await newContext(browser, "desktop", { locale: "en-GB" });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.goto(`${server.url}/en/`);
    await page.locator("#search-q").fill("amapaino");
    // A typo of 8 letters is forgiven: the event is listed without any suggestion.
    await page.waitForFunction(() => document.querySelector("#results")?.getAttribute("data-query") === "q=amapaino");
    expect(await page.locator("#results .card-title").allTextContents()).toEqual(["Canal Amapiano Sunset"]);
    await page.locator("#search-q").fill("kmpoa");
    await page.waitForFunction(() => document.querySelector("#results")?.getAttribute("data-query") === "q=kmpoa");
    expect(await page.locator(".did-you-mean").textContent()).toBe("Did you mean Kompa? (1 event)");
    await page.locator("[data-did-you-mean]").click();
    await page.waitForFunction(() => document.querySelector("#results")?.getAttribute("data-query") === "q=Kompa");
    expect(await page.locator("#results .card-title").allTextContents()).toEqual(["Montparnasse Zouk & Kompa"]);
    // The results carry their query from the swap; the page script brings the form along once the
    // swap settles (htmx:load), a moment later: wait for that, up to the default timeout.
    await page.waitForFunction(() => (document.getElementById("search-q") as HTMLInputElement).value === "Kompa").catch(() => {});
    expect(await page.locator("#search-q").inputValue()).toBe("Kompa");
    expect(page.url()).toBe(`${server.url}/en/?q=Kompa`);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);

test("five taps on 'Ce soir' are tracked as a filter: the insights list it by name", async () => {
  const before = await (await ctx.request("/admin/insights/discovery", { headers: ADMIN_KEY_HEADER })).text();
  expect(before).toContain("No filters applied in this window.");

  const context = await newContext(browser, "desktop", { locale: "fr-FR" });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.goto(`${server.url}/`);
    for (let tap = 1; tap <= 5; tap++) {
      const chip = page.locator('[data-quick="tonight"]');
      await chip.click();
      // On after odd taps, off after even ones (the reply swaps the chips back in).
      const on = tap % 2 === 1;
      await page.waitForFunction((on) => (document.querySelector('[data-quick="tonight"]')?.getAttribute("aria-current") === "true") === on, on);
    }
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }

  // Beacons are written behind: flush until the three taps that switched it on are in. The test
  // clock stands still, so it moves on a second for the rows to fall inside the window [start, now).
  ctx.clock.advance(1000);
  let html = "";
  for (let attempt = 0; attempt < 50; attempt++) {
    await ctx.deps.tracking.flush();
    html = await (await ctx.request("/admin/insights/discovery", { headers: ADMIN_KEY_HEADER })).text();
    if (html.includes("Quick chip: Tonight")) break;
    await Bun.sleep(100);
  }
  expect(html).not.toContain("No filters applied");
  expect(html).toMatch(/<li><span>Quick chip: Tonight<\/span> <span class="badge">3<\/span><\/li>/);
}, 90_000);
