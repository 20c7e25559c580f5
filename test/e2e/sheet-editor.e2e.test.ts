// In Chromium, on a phone and a desktop: edit a cell of the event sheet editor and see "All changes
// saved"; publish and find the change on /; two admins edit the same cell and the second gets the
// conflict view, re-applies, and nothing is lost.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { createTestContext, type TestContext } from "../helpers/app.ts";
import { loginAsAdmin } from "../helpers/auth.ts";
import { collectConsoleErrors, launchBrowser, newContext, screenshot, serveApp } from "../helpers/browser.ts";
import { readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";

let ctx: TestContext;
let server: { url: string; stop: () => Promise<void> };
let browser: Browser;

const SHEET = [
  "Title,Date,Start Time,Location,Area,Categories,Event Key",
  "Sunset Set,2026-06-21,18:00,Quai de Valmy,10,House,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,Club X,11,Techno,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,Parvis,4,Classical,evt_cccccccccccccccc",
].join("\n");

beforeAll(async () => {
  ctx = await createTestContext({ env: { DATA_MODE: "remote" } });
  server = serveApp(ctx);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await ctx?.close();
});
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups`);
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
  await ctx.deps.invalidation.invalidate({ paths: ["/"], tags: ["live-events"] });
});

/** A logged-in admin context (its own session cookie). */
async function adminContext(viewport: "phone" | "desktop"): Promise<BrowserContext> {
  const context = await newContext(browser, viewport);
  const { token } = await loginAsAdmin(ctx);
  await context.addCookies([{ name: "finder_admin_session", value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  return context;
}

/** The id of the stored row with this title (or, failing that, this event key). */
const rowIdOf = async (title: string) => (await readStoreSheet(ctx.deps.db))!.rows.find((r) => r.values.title === title || r.values.eventKey === title)!.id;
const cellOf = (page: Page, rowId: string, label: string) => page.locator(`#sheet-editor tr[data-row="${rowId}"] input[aria-label^="${label},"]`);
const cell = (page: Page, key: string, label: string) => ({
  fill: async (value: string) => cellOf(page, await rowIdOf(key), label).fill(value),
  click: async () => cellOf(page, await rowIdOf(key), label).click(),
  inputValue: async () => cellOf(page, await rowIdOf(key), label).inputValue(),
  getAttribute: async (name: string) => cellOf(page, await rowIdOf(key), label).getAttribute(name),
});
const status = (page: Page) => page.locator("#sheet-editor [data-status]");

async function openEditor(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.goto(`${server.url}/admin/content`);
  await page.getByRole("heading", { name: "Event Sheet Editor" }).waitFor();
  await page.locator("#sheet-editor table input").first().waitFor();
  return { page, errors };
}

const storedValue = async (key: string, field: string) => (await readStoreSheet(ctx.deps.db))!.rows.find((r) => r.values.eventKey === key)!.values[field];

describe("event sheet editor in the browser", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: edit a cell → All changes saved; publish → the change is on /`, async () => {
      const context = await adminContext(viewport);
      try {
        const { page, errors } = await openEditor(context);
        await expect(page.locator("#sheet-editor [data-count]").textContent()).resolves.toBe("Showing 3 of 3 rows.");
        const location = cell(page, "Late Club", "Location");
        await location.fill("Club Y");
        await expect(status(page).textContent()).resolves.toMatch(/Unsaved changes|Saving/);
        await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
        await expect(page.locator("#sheet-editor [data-note]").textContent()).resolves.toBe("Autosaved - homepage not yet updated");
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club Y");
        // Event Key is read-only.
        await expect(cell(page, "Late Club", "Event Key").getAttribute("readonly")).resolves.toBe("");
        await screenshot(page, `sheet-editor-saved-${viewport}`);

        const title = cell(page, "evt_aaaaaaaaaaaaaaaa", "Title");
        await title.fill("Sunset Set Live");
        await page.getByRole("button", { name: "Save and Revalidate Homepage" }).click();
        await page.locator("#sheet-editor [data-note]:text-is('Saved and homepage revalidated')").waitFor();
        const home = await (await fetch(`${server.url}/`)).text();
        expect(home).toContain("Sunset Set Live");
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test("desktop: search, add a row (it gets its key on save), delete a row with confirm, undo and redo", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      await page.getByPlaceholder("Search rows").fill("choir");
      await expect(page.locator("#sheet-editor [data-count]").textContent()).resolves.toBe("Showing 1 of 1 rows matching the search (3 in all).");
      await page.getByPlaceholder("Search rows").fill("");
      await page.getByRole("button", { name: "Add row" }).click();
      await page.keyboard.type("Brand new");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type("2026-06-21");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      await expect(cell(page, "Brand new", "Event Key").inputValue()).resolves.toMatch(/^evt_[0-9a-f]{16}$/);
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: /Delete row 3 Morning Choir/ }).click();
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect((await readStoreSheet(ctx.deps.db))!.rows.map((r) => r.values.title)).toEqual(["Sunset Set", "Late Club", "Brand new"]);
      await page.getByRole("button", { name: "Undo" }).click();
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect((await readStoreSheet(ctx.deps.db))!.rows.map((r) => r.values.title)).toContain("Morning Choir");
      await page.getByRole("button", { name: "Redo" }).click();
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect((await readStoreSheet(ctx.deps.db))!.rows.map((r) => r.values.title)).not.toContain("Morning Choir");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("two admins edit the same cell: the second gets the conflict view and re-applies; nothing is lost", async () => {
    const first = await adminContext("desktop");
    const second = await adminContext("phone");
    try {
      const a = await openEditor(first);
      const b = await openEditor(second);
      // A changes Sunset's location and Late Club's area.
      await cell(a.page, "evt_aaaaaaaaaaaaaaaa", "Location").fill("Canal");
      await cell(a.page, "Late Club", "Area").fill("12");
      await a.page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      // B, on the old copy, changes the same location and another row's notes.
      await cell(b.page, "Morning Choir", "Notes").fill("Bring water");
      await cell(b.page, "evt_aaaaaaaaaaaaaaaa", "Location").fill("Bridge");
      const conflict = b.page.locator("#sheet-editor [data-conflict]");
      await conflict.getByText("Someone else changed the sheet").waitFor();
      await expect(conflict.locator("q.theirs").textContent()).resolves.toBe("Canal");
      await expect(conflict.locator("q.mine").textContent()).resolves.toBe("Bridge");
      await screenshot(b.page, "sheet-editor-conflict-phone");
      expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "location")).toBe("Canal");
      await conflict.getByRole("button", { name: "Re-apply my edits" }).click();
      await b.page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "location")).toBe("Bridge");
      expect(await storedValue("evt_cccccccccccccccc", "notes")).toBe("Bring water");
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "area")).toBe("12");
      // B's grid now shows A's other change too.
      await expect(cell(b.page, "Late Club", "Area").inputValue()).resolves.toBe("12");
      expect([...a.errors, ...b.errors.filter((e) => !e.includes("409"))]).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
