// In Chromium, the /admin/placements forms with JavaScript off and on: without it every form posts
// and comes back with its notice (fulfil, move, dismiss, delete, test link, schedule, reschedule,
// cancel, clear) and the timeline is drawn by the server; with it the destructive forms ask first
// (once, even after tab navigation swapped the area in again), Copy stats link (on the link an activation shows once) copies, and the
// same forms still work. Screenshots go to test/e2e/screenshots.

import { beforeEach, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { TEST_ADMIN_KEY } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { collectConsoleErrors, screenshot, useBrowserApp, VIEWPORTS } from "../helpers/browser.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";

const app = useBrowserApp({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });

beforeEach(async () => {
  await resetDatabase(app.ctx.deps.database);
  app.ctx.clock.set("2026-06-18T10:00:00Z"); // 12:00 in Paris
});

/** A paid order from a signed webhook delivery. */
async function paidOrder(id: string, eventName: string): Promise<void> {
  const body = JSON.stringify(checkoutCompleted({ id, session: { custom_fields: [{ key: "event_name", text: { value: eventName } }] } }));
  const res = await fetch(`${app.server.url}/api/webhooks/payment`, { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(body, Math.floor(app.ctx.clock.now().getTime() / 1000)) }, body });
  expect(((await res.json()) as { inserted: boolean }).inserted).toBe(true);
}

/** The admin, with the key header, JavaScript on or off. */
function adminContext(javaScriptEnabled: boolean, viewport: keyof typeof VIEWPORTS = "desktop"): Promise<BrowserContext> {
  const v = VIEWPORTS[viewport];
  return app.browser.newContext({ viewport: { width: v.width, height: v.height }, isMobile: v.isMobile, javaScriptEnabled, extraHTTPHeaders: { "x-admin-key": TEST_ADMIN_KEY } });
}

const notice = (page: Page) => page.locator(".placements-area .notice").textContent();

describe("/admin/placements forms", () => {
  test("without JavaScript: every order and scheduler form posts and comes back with its notice", async () => {
    await paidOrder("evt_nojs_1", "No Script Night");
    const context = await adminContext(false);
    const page = await context.newPage();
    await page.goto(`${app.server.url}/admin/placements`);

    // Orders: mark processing, fulfil as promoted, then move away from activated, dismiss and delete.
    const order = page.locator(".order-card", { hasText: "No Script Night" });
    await order.getByRole("button", { name: "Mark processing" }).click();
    expect(await notice(page)).toBe("Order updated");
    await expect(order.getAttribute("data-status")).resolves.toBe("processing");
    // Found by its title, not only its key.
    await order.getByLabel("Event").fill("Bastille Dancehall");
    await order.getByLabel("Tier").selectOption("promoted");
    await order.getByRole("button", { name: "Fulfil as selected tier" }).click();
    expect(await notice(page)).toBe("Order activated as promoted for “Bastille Dancehall Night” (evt_fixture000005)");
    // The statistics link is shown this once, above the queue; without JavaScript it is there to copy by hand.
    const once = page.locator(".stats-link-once");
    await expect(once.getByRole("link", { name: "Open partner stats" }).getAttribute("href")).resolves.toMatch(/\/partner-stats\/[0-9a-f-]{36}\?token=[0-9a-f]{32}$/);
    await expect(once.getByLabel("Statistics link").inputValue()).resolves.toMatch(/\/partner-stats\//);
    await expect(order.getByText("Statistics link issued").count()).resolves.toBe(1);
    await order.getByRole("button", { name: "Dismiss" }).click();
    expect(await notice(page)).toBe("Order updated");
    await order.getByRole("button", { name: "Delete" }).click();
    expect(await notice(page)).toBe("Order deleted");
    await expect(page.locator(".order-card", { hasText: "No Script Night" }).count()).resolves.toBe(0);

    // The test link form inside its <details> (promoted, so the spotlight slots below stay free).
    await page.getByText("Generate Test Stats Link", { exact: true }).first().click();
    await page.locator("details.test-link").getByLabel("Event").fill("evt_fixture000006");
    await page.locator("details.test-link").getByLabel("Tier").selectOption("promoted");
    await page.locator("details.test-link").getByRole("button", { name: "Generate Test Stats Link" }).click();
    expect(await notice(page)).toBe("Test activation created");
    await expect(page.locator(".stats-link-once").getByLabel("Statistics link").inputValue()).resolves.toMatch(/\/partner-stats\/[0-9a-f-]{36}\?token=[0-9a-f]{32}$/);

    // Scheduler: feature four events now; the fourth queues; the timeline shows it in slot 3.
    const create = page.locator("form.create-entry");
    for (const key of ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"]) {
      await create.getByLabel("Event").fill(key);
      await create.getByLabel("Duration (h)").fill(key.endsWith("3") ? "6" : "48");
      await create.getByRole("button", { name: "Feature now" }).click();
      expect(await notice(page)).toMatch(new RegExp(`^Scheduled “[^”]+” \\(${key}\\): (active|upcoming)`));
    }
    expect(await notice(page)).toBe("Scheduled “Pigalle Hip Hop Cypher” (evt_fixture000004): upcoming (#1 in queue)");
    await expect(page.locator(".tl-lane", { hasText: "Slot 3" }).locator(".tl-bar").count()).resolves.toBe(2);
    await expect(page.locator(".tl-bar.state-upcoming .tl-state").textContent()).resolves.toBe("#1 in queue");
    await screenshot(page, "placements-timeline-nojs-desktop");

    // Reschedule the queued entry to a given Paris time, cancel another, clear the queue and the history.
    const queuedRow = page.locator("table.timeline tr[data-state='upcoming']");
    await queuedRow.getByLabel("New start (Paris time)").fill("2026-06-21T18:00");
    await queuedRow.getByRole("button", { name: "Reschedule" }).click();
    expect(await notice(page)).toBe("Entry rescheduled");
    await page.locator("table.timeline tr[data-state='active']").first().getByRole("button", { name: "Cancel" }).click();
    expect(await notice(page)).toBe("Entry cancelled");
    await page.getByRole("button", { name: "Clear Scheduled Queue" }).click();
    expect(await notice(page)).toBe("Cleared 1 queued entries");
    await page.getByRole("button", { name: "Clear History" }).click();
    expect(await notice(page)).toBe("Cleared 1 past entries");
    await expect(page.locator(".tl-bar").count()).resolves.toBe(2);
    await context.close();
  }, 90_000);

  test("with JavaScript: destructive forms ask once (also when tab navigation swapped the area in), a refusal keeps everything, Copy stats link copies", async () => {
    await paidOrder("evt_js_1", "Script Night");
    const [listed] = ((await (await fetch(`${app.server.url}/api/admin/orders`, { headers: { "x-admin-key": TEST_ADMIN_KEY } })).json()) as { orders: { id: string }[] }).orders;
    await fetch(`${app.server.url}/api/admin/orders/${listed!.id}`, { method: "PATCH", headers: { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" }, body: JSON.stringify({ status: "dismissed" }) });
    const context = await adminContext(true);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.server.url });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    const dialogs: string[] = [];
    let answer = false;
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    await page.goto(`${app.server.url}/admin`);
    // Tab navigation swaps the placements area in (twice), as an admin moving around would.
    for (let i = 0; i < 2; i++) {
      await page.locator(".admin-tabs").getByRole("link", { name: /Placements/ }).click();
      await page.locator("#orders").waitFor();
      await page.locator(".admin-tabs").getByRole("link", { name: "Overview" }).click();
      await page.locator(".area-cards").first().waitFor();
    }
    await page.locator(".admin-tabs").getByRole("link", { name: /Placements/ }).click();
    await page.locator("#orders").waitFor();

    // The first action after the swap: the confirmation must already be bound.
    const order = page.locator(".order-card", { hasText: "Script Night" });
    await order.getByRole("button", { name: "Delete" }).click();
    expect(dialogs).toEqual(["Delete this dismissed order? Its statistics link stops working."]);
    await expect(order.count()).resolves.toBe(1);

    answer = true;
    await order.getByRole("button", { name: "Delete" }).click();
    expect(await notice(page)).toBe("Order deleted");
    expect(dialogs).toHaveLength(2);

    // Schedule with a Paris time, then Copy stats link on a test activation.
    const create = page.locator("form.create-entry");
    // 48 hours from June 20 run past the event's day: refused until confirmed.
    await create.getByLabel("Event").fill("evt_fixture000002");
    await create.getByLabel("Schedule at (Paris)").fill("2026-06-20T18:00");
    await create.getByRole("button", { name: "Schedule", exact: true }).click();
    expect(await notice(page)).toBe("The placement would run until 22/06/2026, 18:00, after “Belleville Rooftop House” (evt_fixture000002) ends (2026-06-21): confirm to schedule it anyway.");
    await create.getByLabel("Event").fill("evt_fixture000002");
    await create.getByLabel("Schedule at (Paris)").fill("2026-06-20T18:00");
    await create.getByLabel("Schedule anyway").check();
    await create.getByRole("button", { name: "Schedule", exact: true }).click();
    expect(await notice(page)).toBe("Scheduled “Belleville Rooftop House” (evt_fixture000002): upcoming (#1 in queue)");
    await expect(page.locator(".tl-bar .tl-when").textContent()).resolves.toBe("20/06/2026, 18:00 → 22/06/2026, 18:00");
    await page.getByText("Generate Test Stats Link", { exact: true }).first().click();
    await page.locator("details.test-link").getByLabel("Event").fill("evt_fixture000006");
    await page.locator("details.test-link").getByRole("button", { name: "Generate Test Stats Link" }).click();
    await page.locator(".stats-link-once").waitFor();
    const copy = page.locator("button[data-copy]");
    await expect(copy.textContent()).resolves.toContain("Copy stats link");
    const link = await page.getByRole("link", { name: "Open partner stats" }).getAttribute("href");
    await copy.click();
    await page.waitForFunction(() => document.querySelector("button[data-copy]")?.textContent === "Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link!);
    await screenshot(page, "placements-js-desktop");
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  test("the timeline on a phone: lanes scroll sideways inside the card, the page does not", async () => {
    const context = await adminContext(true, "phone");
    const page = await context.newPage();
    for (const key of ["evt_fixture000001", "evt_fixture000002"]) {
      await fetch(`${app.server.url}/api/admin/placements/spotlight`, { method: "POST", headers: { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" }, body: JSON.stringify({ eventKey: key }) });
    }
    await page.goto(`${app.server.url}/admin/placements#scheduler`);
    await page.locator(".tl-bar").first().waitFor();
    const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth, tl: document.querySelector(".tl")!.scrollWidth > document.querySelector(".tl")!.clientWidth }));
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    expect(widths.tl).toBe(true);
    await screenshot(page, "placements-timeline-phone");
    await context.close();
  }, 60_000);
});
