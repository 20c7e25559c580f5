// Browser-test helpers: Debian's Chromium driven by playwright-core against the app on a loopback port.

import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { TestContext } from "./app.ts";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const SCREENSHOT_DIR = join(import.meta.dir, "../e2e/screenshots");

/** Viewports every page is checked on. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844, isMobile: true, hasTouch: true },
  desktop: { width: 1366, height: 900, isMobile: false, hasTouch: false },
} as const;

/** Launches headless Chromium with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Serves the test app on a free loopback port. */
export function serveApp(ctx: TestContext): { url: string; stop: () => Promise<void> } {
  const server = ctx.app.listen({ port: 0, hostname: "127.0.0.1" });
  return { url: `http://127.0.0.1:${server.server!.port}`, stop: async () => { await ctx.app.stop(true); } };
}

/** A browser context for a viewport; JavaScript can be switched off. */
export function newContext(browser: Browser, viewport: keyof typeof VIEWPORTS, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const v = VIEWPORTS[viewport];
  return browser.newContext({ viewport: { width: v.width, height: v.height }, isMobile: v.isMobile, hasTouch: v.hasTouch, javaScriptEnabled: options.javaScriptEnabled ?? true });
}

/** Collects console errors and page errors of a page, for "no console errors" checks. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

/** Saves a screenshot under test/e2e/screenshots (git-ignored; a CI artifact). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
