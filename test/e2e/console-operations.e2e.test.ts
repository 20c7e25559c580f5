// In Chromium, phone and desktop: accept a submission and find its row; take a backup, clear the
// store, restore it and see the events back; import a spreadsheet from a loopback fake of the
// Sheets API with its progress shown. Screenshots go to test/e2e/screenshots.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { TEST_ADMIN_KEY } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { createTestServiceAccount, startFakeGoogle, type FakeGoogle } from "../lib/spreadsheet-import/fake-google.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { parseCsvRecords } from "../../src/lib/sheet/csv.ts";

let fake: FakeGoogle;
let account: Awaited<ReturnType<typeof createTestServiceAccount>>;

beforeAll(async () => {
  account = await createTestServiceAccount();
  const values = parseCsvRecords(await Bun.file("data/events.csv").text());
  // The pause lets the progress bar be seen while the import fetches.
  fake = startFakeGoogle([account], { "sheet-events": { values, delayMs: 1500 } });
});
const { ctx, server, browser } = useBrowserApp(() => ({
  env: { DATA_MODE: "remote", SHEET_ID: "sheet-events", SHEET_SERVICE_ACCOUNT_KEY: account.json, SHEETS_TOKEN_URL: fake.tokenUrl, SHEETS_API_URL: fake.apiUrl },
}));
// Declared after the app's: the app stops before the fake it imports from.
afterAll(() => fake?.stop());

async function signIn(page: Page, next: string) {
  await page.goto(`${server.url}/admin/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Admin Key").fill(TEST_ADMIN_KEY);
  await page.getByRole("button", { name: "Enter Console" }).click();
  await page.waitForURL(`${server.url}${next}`);
}

async function fresh() {
  await resetDatabase(ctx.deps.database);
  await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
}

const withPage = async (viewport: "phone" | "desktop", run: (page: Page) => Promise<void>) => {
  const context = await newContext(browser, viewport);
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  try {
    await run(page);
    // Refusals are swapped on purpose (4xx): only unexpected errors count.
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  } finally {
    await context.close();
  }
};

describe("console operations in the browser", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: accept a submission and find its row`, async () => {
      await fresh();
      const outcome = await submitEvent(
        ctx.deps,
        { eventName: `Browser Accept ${viewport}`, date: "2026-06-21", startTime: "20:00", location: "Canal Saint-Martin", hostEmail: "host@example.com", proofLink: "canal.example", arrondissement: "10" },
        "192.0.2.10",
      );
      expect(outcome.kind).toBe("received");
      await withPage(viewport, async (page) => {
        await signIn(page, "/admin/content");
        const card = page.locator("#submissions-card");
        await card.getByRole("heading", { name: `Browser Accept ${viewport}` }).waitFor();
        await card.getByRole("button", { name: "Accept" }).click();
        const link = card.getByRole("link", { name: "Open in the editor" }).first();
        await link.waitFor();
        const key = (await card.locator(".notice code").textContent())!;
        expect(key).toMatch(/^evt_[a-z0-9]{12,20}$/);
        expect(await link.getAttribute("href")).toBe(`/admin/content?search=${key}#sheet-editor`);
        await screenshot(page, `console-accept-${viewport}`);
        // The row is in the store under that key.
        const row = (await readStoreSheet(ctx.deps.db))!.rows.find((r) => r.values.eventKey === key);
        expect(row?.values.title).toBe(`Browser Accept ${viewport}`);
        // A second admin who still sees the item gets the race message.
        await page.goto(`${server.url}/admin/content?status=accepted`);
        await page.locator("#submissions-card").getByText(key).first().waitFor();
      });
    }, 90_000);

    test(`${viewport}: back up, clear the store, restore it, see the events back`, async () => {
      await fresh();
      await withPage(viewport, async (page) => {
        await signIn(page, "/admin/operations");
        const store = page.locator("#ops-store");
        await store.getByRole("button", { name: "Backup Now" }).click();
        await store.getByText("Backup created (12 rows, 0 featured entries)").waitFor();

        const recovery = page.locator("#ops-recovery");
        await recovery.getByLabel("Type CLEAR STORE to empty the store").fill("clear store");
        await recovery.getByRole("button", { name: "Clear store" }).click();
        await recovery.getByText("Type CLEAR STORE to confirm; nothing was changed.").waitFor();
        expect((await findStoreMeta(ctx.deps.db))!.rowCount).toBe(12);
        await recovery.getByLabel("Type CLEAR STORE to empty the store").fill("CLEAR STORE");
        await recovery.getByRole("button", { name: "Clear store" }).click();
        await recovery.getByText("Store cleared and homepage revalidated").waitFor();
        await page.locator("#ops-store-tiles .tile", { hasText: "Rows" }).getByText("0", { exact: true }).waitFor();
        await screenshot(page, `console-cleared-${viewport}`);

        await store.locator("summary", { hasText: "Restore Latest Backup" }).click();
        await store.getByRole("button", { name: "Yes, restore the latest backup" }).click();
        const job = page.locator("#ops-activity .job").first();
        await job.waitFor();
        await page.locator("#ops-activity").getByText("Snapshot restored and homepage revalidated").waitFor();
        await page.locator("#ops-store-tiles .tile", { hasText: "Rows" }).getByText("12", { exact: true }).waitFor();
        await screenshot(page, `console-restored-${viewport}`);

        // The events are back on the live pages, read from the store again.
        await page.locator("#ops-snapshot").getByRole("link", { name: "Refresh" }).click();
        await page.locator("#ops-snapshot .badge", { hasText: "Store" }).waitFor();
        await page.goto(`${server.url}/`);
        await page.getByText("Canal Amapiano Sunset").first().waitFor();
      });
    }, 90_000);

    test(`${viewport}: preview and import the spreadsheet with progress shown`, async () => {
      await fresh();
      await withPage(viewport, async (page) => {
        await signIn(page, "/admin/operations");
        const region = page.locator("#ops-import");
        expect(await region.getByRole("button", { name: "Import Spreadsheet" }).isDisabled()).toBe(true);
        await region.getByRole("button", { name: "Preview Spreadsheet" }).click();
        await page.locator("#ops-import").getByText("81 rows from the spreadsheet (service-account).").waitFor();
        await page.locator("#ops-import").getByText("No blocking issues.").waitFor();
        const importButton = page.locator("#ops-import").getByRole("button", { name: "Import Spreadsheet" });
        expect(await importButton.isDisabled()).toBe(false);
        await importButton.click();
        // The progress bar shows while the spreadsheet is fetched, and the page stays usable.
        const job = page.locator("#ops-activity .job").first();
        await job.locator("progress").waitFor();
        await job.getByText("Fetching the spreadsheet").waitFor();
        await screenshot(page, `console-import-progress-${viewport}`);
        await page.locator("#ops-snapshot").getByRole("link", { name: "Refresh" }).click();
        await page.locator("#ops-activity").getByText("Imported 81 rows from the spreadsheet into the managed store").waitFor({ timeout: 30_000 });
        expect(await job.getAttribute("data-job-state")).toBe("succeeded");
        await page.locator("#ops-store-tiles .tile", { hasText: "Rows" }).getByText("81", { exact: true }).waitFor();
        await screenshot(page, `console-import-done-${viewport}`);
      });
    }, 90_000);
  }
});
