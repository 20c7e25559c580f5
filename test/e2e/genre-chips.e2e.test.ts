// A signed-in visitor's top genres appear as quick chips above the genre filter; one click applies it.

import { expect, test } from "bun:test";
import { createClock, TEST_AUTH_SECRET } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, useBrowserApp } from "../helpers/browser.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { sessionGenrePreferences } from "../../src/lib/db/schema/index.ts";

/** The signed-in session whose genres are shown (the chips are per browser session). */
let token: string;
/** Before the fixture's edition (June 2026): the homepage lists its events (docs/editions.md). */
const AT = new Date("2026-06-10T12:00:00Z");

const { ctx, server, browser } = useBrowserApp({
  clock: createClock(AT),
  seed: async (ctx) => {
    const signed = await signUserToken(TEST_AUTH_SECRET, "fan@example.com", AT);
    token = signed.token;
    await ctx.deps.db.insert(sessionGenrePreferences).values([
      { sessionId: signed.sid, email: "fan@example.com", genre: "house", score: 5 },
      { sessionId: signed.sid, email: "fan@example.com", genre: "dancehall", score: 3 },
    ]);
  },
});

test("desktop: quick chips for a signed-in visitor; a chip applies its genre filter", async () => {
  const context = await newContext(browser, "desktop");
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
