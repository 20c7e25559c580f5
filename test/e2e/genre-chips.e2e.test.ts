// A signed-in visitor's top genres appear as quick chips above the genre filter; one click applies it.

import { expect, test } from "bun:test";
import { createClock, TEST_AUTH_SECRET } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, useBrowserApp } from "../helpers/browser.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { genrePreferences } from "../../src/lib/db/schema/index.ts";

const { ctx, server, browser } = useBrowserApp({
  clock: createClock(new Date()),
  seed: async (ctx) => {
    await ctx.deps.db.insert(genrePreferences).values([
      { email: "fan@example.com", genre: "house", score: 5 },
      { email: "fan@example.com", genre: "dancehall", score: 3 },
    ]);
  },
});

test("desktop: quick chips for a signed-in visitor; a chip applies its genre filter", async () => {
  const context = await newContext(browser, "desktop");
  const { token } = await signUserToken(TEST_AUTH_SECRET, "fan@example.com", new Date());
  await context.addCookies([{ name: "finder_user_session", value: token, url: server.url }]);
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await page.goto(`${server.url}/`);
    const chips = page.locator("[data-quick-genre]");
    await chips.first().waitFor();
    expect(await chips.allTextContents()).toEqual(["House", "Dancehall"]);
    await chips.first().click();
    await page.waitForURL(/[?&]g=house/);
    await page.waitForFunction(() => document.querySelectorAll("#results article.card").length === 2);
    const names = await page.locator("#results .card-link").allTextContents();
    expect(names).toEqual(["Belleville Rooftop House", "Mystery Warehouse Party"]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 30_000);
