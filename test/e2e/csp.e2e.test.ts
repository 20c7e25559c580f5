// In Chromium with the Content-Security-Policy on: every public page and every console page loads
// and is used (map, modal, search, sign-in dialog, console tabs) without a single CSP violation.

import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { TEST_ADMIN_KEY } from "../helpers/app.ts";
import { newContext, useBrowserApp } from "../helpers/browser.ts";
import { ADMIN_AREAS } from "../../src/pages/admin/shell.view.tsx";

const { ctx, server, browser } = useBrowserApp();


const PUBLIC_PAGES = [
  "/",
  "/?q=jazz",
  "/?event=evt_fixture000001&slug=canal-amapiano-sunset",
  "/feature-event",
  "/feature-event/status",
  "/partner-success",
  "/privacy",
  "/terms",
  "/submit-event",
  "/my-night",
  "/my-night?e=evt_fixture000001,evt_fixture000002",
  "/manifest.webmanifest",
  "/account/genres",
  "/no-such-page",
  "/admin/login",
];

/**
 * Records every CSP violation of the pages of `context`: the `securitypolicyviolation` event (set
 * up by an init script, which the page's policy does not govern) and the console's "Refused to …"
 * reports.
 */
async function watchViolations(context: BrowserContext): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`));
  });
  const page = await context.newPage();
  const consoleReports: string[] = [];
  page.on("console", (msg) => {
    const text = msg.text();
    if (/Content Security Policy|Refused to/i.test(text)) consoleReports.push(`${page.url()}: ${text}`);
  });
  const fromPage: string[] = [];
  const collect = async () => {
    try {
      const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
      for (const v of seen) fromPage.push(`${page.url()}: ${v}`);
      await page.evaluate(() => ((window as unknown as { __csp?: string[] }).__csp ?? []).splice(0));
    } catch {}
  };
  page.on("framenavigated", () => {});
  return {
    page,
    violations: async () => {
      await collect();
      return [...fromPage, ...consoleReports];
    },
  };
}

async function visit(page: Page, url: string, check: () => Promise<string[]>, found: string[]) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForLoadState("networkidle").catch(() => {});
  found.push(...(await check()));
}

describe("Content-Security-Policy in the browser", () => {
  test("the detector sees a violation: an inline script added to a page is blocked and reported", async () => {
    const context = await newContext(browser, "desktop");
    try {
      const { page, violations } = await watchViolations(context);
      await page.goto(`${server.url}/privacy`);
      await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.append(script);
      });
      await page.waitForFunction(() => ((window as unknown as { __csp?: string[] }).__csp ?? []).length > 0);
      expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
      expect((await violations()).join("\n")).toContain("script-src");
    } finally {
      await context.close();
    }
  }, 60_000);

  test("every public page, used with JavaScript, has no violation", async () => {
    const context = await newContext(browser, "desktop");
    const found: string[] = [];
    try {
      const { page, violations } = await watchViolations(context);
      for (const path of PUBLIC_PAGES) await visit(page, `${server.url}${path}`, violations, found);

      // The homepage in use: open the map (Leaflet, tiles), search (htmx swap), open an event.
      await visit(page, `${server.url}/`, violations, found);
      await page.locator("#map-card summary").click();
      await page.locator(".leaflet-container").waitFor();
      await page.locator("#event-map path.leaflet-interactive").first().waitFor();
      await page.getByRole("searchbox").first().fill("canal");
      await page.waitForURL(/q=canal/);
      await page.locator("[data-event-key]").first().waitFor();
      await page.goto(`${server.url}/?event=evt_fixture000001&slug=canal-amapiano-sunset`);
      await page.locator("dialog#event-modal").waitFor();
      await page.keyboard.press("Escape");
      await page.waitForLoadState("networkidle").catch(() => {});
      // The service worker registered under this policy and now controls the page; the manifest loads.
      expect(await page.evaluate(async () => !!(await navigator.serviceWorker.ready).active)).toBe(true);
      await page.reload();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await page.locator("#results article.card [data-save]").first().click();
      found.push(...(await violations()));
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  }, 180_000);

  test("the console: log in, every area, tab navigation and logout have no violation", async () => {
    const context = await newContext(browser, "desktop");
    const found: string[] = [];
    try {
      const { page, violations } = await watchViolations(context);
      await visit(page, `${server.url}/admin/login`, violations, found);
      await page.getByLabel("Admin Key").fill(TEST_ADMIN_KEY);
      await page.getByRole("button", { name: "Enter Console" }).click();
      await page.waitForURL(`${server.url}/admin`);
      await page.getByRole("heading", { name: "Admin Console" }).waitFor();
      for (const area of ADMIN_AREAS) await visit(page, `${server.url}${area.path}`, violations, found);
      // Tab navigation through htmx.
      await page.goto(`${server.url}/admin`);
      for (const area of ADMIN_AREAS.slice(1)) {
        await page.getByRole("navigation", { name: "Console areas" }).getByRole("link", { name: area.label }).click();
        await page.waitForURL(`${server.url}${area.path}`);
      }
      await page.waitForLoadState("networkidle").catch(() => {});
      found.push(...(await violations()));
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  }, 180_000);
});
