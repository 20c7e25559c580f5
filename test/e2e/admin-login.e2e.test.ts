// In Chromium: open /admin/login, enter the key, land on the console, see the sessions card,
// log out. Run on a desktop and a phone viewport; screenshots go to test/e2e/screenshots.

import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";

const { ctx, server, browser } = useBrowserApp();

describe("admin login in the browser", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: log in with the key, see the sessions card, log out`, async () => {
      await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}/admin/login`);
        await expect(page.getByRole("heading", { name: "Admin Access" }).isVisible()).resolves.toBe(true);

        // A wrong key first: the card swaps itself with the inline error.
        await page.getByLabel("Admin Key").fill("not-the-key");
        await page.getByRole("button", { name: "Enter Console" }).click();
        await page.getByText("That key is not valid.").waitFor();
        await screenshot(page, `admin-login-error-${viewport}`);

        await page.getByLabel("Admin Key").fill(TEST_ADMIN_KEY);
        await page.getByRole("button", { name: "Enter Console" }).click();
        await page.waitForURL(`${server.url}/admin`);
        await page.getByRole("heading", { name: "Admin Console" }).waitFor();
        await screenshot(page, `admin-overview-${viewport}`);

        await page.getByRole("navigation", { name: "Console areas" }).getByRole("link", { name: "Operations" }).click();
        await page.waitForURL(`${server.url}/admin/operations`);
        const card = page.locator("#admin-sessions");
        await card.getByRole("heading", { name: "Admin Sessions" }).waitFor();
        await expect(card.getByText("(this session)").isVisible()).resolves.toBe(true);
        await expect(card.getByText("1 active / 1 total").isVisible()).resolves.toBe(true);
        await screenshot(page, `admin-sessions-${viewport}`);

        const cookies = await context.cookies();
        const session = cookies.find((c) => c.name === "finder_admin_session");
        expect(session?.httpOnly).toBe(true);
        expect(session?.sameSite).toBe("Lax");

        await card.getByRole("button", { name: "Logout" }).click();
        await page.waitForURL(`${server.url}/admin/login`);
        await page.getByRole("heading", { name: "Admin Access" }).waitFor();
        expect((await context.cookies()).some((c) => c.name === "finder_admin_session")).toBe(false);
        await screenshot(page, `admin-logged-out-${viewport}`);

        // The console is closed again: the login card answers in its place.
        const res = await page.goto(`${server.url}/admin/operations`);
        expect(res?.status()).toBe(401);
        await page.getByRole("heading", { name: "Admin Access" }).waitFor();

        // htmx logs nothing for the 401 form answer because the console's htmx-config swaps it.
        expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }
});
