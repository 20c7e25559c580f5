// In Chromium, the paid placement chain end to end: a signed webhook creates an order; the admin
// fulfils it as a spotlight on /admin/placements; the event shows in the homepage spotlight; the
// partner link shows the figures after tracking; the CSV downloads.

import { expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import Papa from "papaparse";
import { TEST_ADMIN_KEY, type TestClock } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";

// Real time: the browser's countdowns and "end is authoritative" checks run at the real clock's
// pace, read from 10 June 2026 on (server and browsers alike): before that edition's window, so the
// homepage lists the fixture's June events (docs/editions.md).
const SHIFT_MS = Date.parse("2026-06-10T12:00:00Z") - Date.now();
const realClock: TestClock = { now: () => new Date(Date.now() + SHIFT_MS), set: () => {}, advance: () => {} };
const { ctx, server, browser } = useBrowserApp({ clock: realClock, env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });

test("webhook → order → fulfil as spotlight → badge on / → partner figures → CSV", async () => {
  const body = JSON.stringify(checkoutCompleted({ session: { custom_fields: [{ key: "event_name", text: { value: "Bercy Yoga Beats" } }] } }));
  const delivered = await fetch(`${server.url}/api/webhooks/payment`, { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(body, Math.floor(realClock.now().getTime() / 1000)) }, body });
  expect(await delivered.json()).toEqual({ ok: true, handled: true, inserted: true });

  // The admin works with the key header (key callers need no same-origin check).
  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { "x-admin-key": TEST_ADMIN_KEY }, acceptDownloads: true });
  const page = await admin.newPage();
  await page.clock.install({ time: realClock.now() });
  const errors = collectConsoleErrors(page);
  await page.goto(`${server.url}/admin/placements`);
  await expect(page.locator(".admin-header .badge").textContent()).resolves.toContain("Action Center 1");
  const order = page.locator(".order-card").first();
  await order.getByText("Bercy Yoga Beats").waitFor();
  await order.getByLabel("Event").fill("evt_fixture000012");
  await order.getByLabel("Tier").selectOption("spotlight");
  // The fixture's events are in June 2026, before the real clock's today: an explicit yes.
  await order.getByLabel("Schedule anyway").check();
  await screenshot(page, "placements-order-desktop");
  await order.getByRole("button", { name: "Fulfil as selected tier" }).click();
  await page.getByText("Order activated as spotlight for “Bercy Yoga Beats” (evt_fixture000012)").waitFor();
  // The statistics link is shown this once, on the page the activation comes back to.
  const statsHref = await page.locator(".stats-link-once").getByRole("link", { name: "Open partner stats" }).getAttribute("href");
  await page.goto(`${server.url}/admin/placements?tab=activated`);
  await expect(page.getByRole("link", { name: "Open partner stats" }).count()).resolves.toBe(0);
  expect(statsHref).toMatch(/\/partner-stats\/[0-9a-f-]{36}\?token=[0-9a-f]{32}$/);
  await expect(page.locator(".admin-header .badge").textContent()).resolves.toContain("Action Center 0");
  await screenshot(page, "placements-activated-desktop");

  // A visitor sees the event in the spotlight on the homepage.
  const visitor = await newContext(browser, "phone");
  const home = await visitor.newPage();
  await home.clock.install({ time: realClock.now() });
  await home.goto(`${server.url}/`);
  const spotlight = home.locator("#spotlight");
  await spotlight.getByText("Bercy Yoga Beats").first().waitFor();
  // Its card carries the spotlight marks: the Featured badge and the spotlight corner.
  const card = home.locator('article.card-spotlight[data-event-key="evt_fixture000012"]').first();
  await expect(card.locator(".badge-featured").first().isVisible()).resolves.toBe(true);
  await expect(card.locator(".card-corner-spotlight").count()).resolves.toBe(1);
  await screenshot(home, "placements-home-spotlight-phone");

  // Tracking: two sessions open the event, one clicks out, one saves it to the calendar.
  for (const [actionType, sessionId] of [["click", "s-one"], ["click", "s-two"], ["outbound_click", "s-one"], ["calendar_sync", "s-two"]] as const) {
    const res = await fetch(`${server.url}/api/track`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.50" }, body: JSON.stringify({ eventKey: "evt_fixture000012", actionType, sessionId }) });
    expect(res.status).toBe(202);
  }

  const partner = await browser.newContext({ acceptDownloads: true });
  const stats = await partner.newPage();
  await stats.clock.install({ time: realClock.now() });
  const statsPath = new URL(statsHref!).pathname + new URL(statsHref!).search;
  let views = "";
  for (let attempt = 0; attempt < 50 && views !== "2"; attempt++) {
    const response = await stats.goto(`${server.url}${statsPath}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    views = (await stats.locator(".stat-tile", { hasText: "Views" }).locator(".stat-value").textContent()) ?? "";
    if (views !== "2") await Bun.sleep(100);
  }
  expect(views).toBe("2");
  await expect(stats.locator(".stat-tile", { hasText: "Calendar additions" }).locator(".stat-value").textContent()).resolves.toBe("1");
  await expect(stats.locator(".stat-tile", { hasText: "Outbound CVR" }).locator(".stat-value").textContent()).resolves.toBe("50.0%");
  await screenshot(stats, "partner-stats-desktop");

  const [download] = await Promise.all([stats.waitForEvent("download"), stats.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("partner-stats-evt_fixture000012.csv");
  const csv = await readFile((await download.path())!, "utf8");
  const rows = Papa.parse<string[]>(csv.trimEnd()).data;
  expect(rows).toHaveLength(2);
  expect(rows[1]!.slice(2, 9)).toEqual(["Bercy Yoga Beats", "spotlight", rows[1]![4]!, rows[1]![5]!, "2", "1", "1"]);
  expect(errors).toEqual([]);
  await Promise.all([admin.close(), visitor.close(), partner.close()]);
}, 60_000);
