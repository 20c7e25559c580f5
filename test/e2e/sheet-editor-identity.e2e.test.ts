// In Chromium, on a 2,000-row sheet: the grid writes to the rows the person sees, by row id, never
// by a position that shifts when rows are fetched. After "Add row" (the new row is drawn under the
// first 50 stored rows, focused), a 3 × 11 block pasted from Google Sheets (TSV and an HTML table
// on the clipboard) lands in the new row and two more new rows: the 2,000 stored rows are left as
// they were. The same for fill down over added rows and for undoing such a paste.

import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { loginAsAdmin } from "../helpers/auth.ts";
import { collectConsoleErrors, newContext, useBrowserApp } from "../helpers/browser.ts";
import { readStoreSheet, saveStoreSheet, type StoreRow } from "../../src/lib/store/store.ts";
import { bigSheet } from "../../bench/fixtures.ts";

// A whole editing session each, on a big sheet, waiting out the autosave's pause.
setDefaultTimeout(90_000);

const { ctx, server, browser } = useBrowserApp({ env: { DATA_MODE: "remote" } });

const ROWS = 2000;

beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published`);
  const saved = await saveStoreSheet(ctx.deps.db, bigSheet(ROWS), { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
});

async function openEditor(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser, "desktop");
  const { token } = await loginAsAdmin(ctx);
  await context.addCookies([{ name: "finder_admin_session", value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.goto(`${server.url}/admin/content`);
  await page.locator("#sheet-editor table textarea").first().waitFor();
  await page.locator(`#sheet-editor [data-count]:text-is('Showing 50 of ${ROWS} rows.')`).waitFor();
  return { context, page, errors };
}

/** Waits until the grid draws `n` rows (the page's 50 and the ones added here). */
const rowsDrawn = (page: Page, n: number) => page.waitForFunction((count) => document.querySelectorAll("#sheet-editor tbody tr").length === count, n);
const waitSaved = (page: Page) => page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();

/** Adds a row with the editor's button; the focus is then on the new row's Title. Returns its id. */
async function addRow(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Add row" }).click();
  const id = await page.evaluate(() => document.activeElement?.getAttribute("data-row") ?? "");
  expect(id).not.toBe("");
  // The new row is drawn under the page of stored rows.
  await expect(page.locator("#sheet-editor tbody tr").last().getAttribute("data-row")).resolves.toBe(id);
  return id;
}

/** Pastes into the focused cell as the browser does on Ctrl+V: a paste event with the clipboard's text and HTML. */
async function pasteIntoFocused(page: Page, clip: { text: string; html: string }) {
  await page.evaluate((data) => {
    const node = document.activeElement!;
    const transfer = new DataTransfer();
    transfer.setData("text/plain", data.text);
    transfer.setData("text/html", data.html);
    node.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, clip);
}

// Three events of eleven columns (Title to Categories), as copied from Google Sheets.
const BLOCK = [
  ["Chorale de la Butte", "", "2026-06-21", "", "19:00", "20:00", "FR", "Square Louise Michel", "18", "Free", "Choir"],
  ["Brass Band Canal", "", "2026-06-21", "", "20:30", "22:00", "FR", "Quai de Valmy", "10", "Free", "Brass"],
  ["Bal Kompa Gambetta", "Yes", "2026-06-21", "", "21:00", "23:30", "HT", "Place Gambetta", "20", "€5", "Kompa"],
];
const FIELDS = ["title", "curated", "date", "dateTo", "startTime", "endTime", "hostCountry", "location", "area", "price", "categories"];
const TSV = BLOCK.map((line) => line.join("\t")).join("\n") + "\n";
const HTML =
  '<meta charset="utf-8"><google-sheets-html-origin><style type="text/css"><!--td {border: 1px solid #cccccc;}--></style>' +
  '<table xmlns="http://www.w3.org/1999/xhtml" cellspacing="0" cellpadding="0" dir="ltr" border="1" data-sheets-root="1"><colgroup>' +
  FIELDS.map(() => '<col width="100"/>').join("") +
  "</colgroup><tbody>" +
  BLOCK.map((line) => '<tr style="height:21px;">' + line.map((v) => `<td style="overflow:hidden;padding:2px 3px;">${v.replace(/&/g, "&amp;")}</td>`).join("") + "</tr>").join("") +
  "</tbody></table>";

/** The stored rows by id. */
async function storedRows(): Promise<Map<string, StoreRow>> {
  return new Map((await readStoreSheet(ctx.deps.db))!.rows.map((r) => [r.id, r]));
}

/** The stored rows as they were before the session are all there, in order, with the same values. */
function expectUnchanged(before: Map<string, StoreRow>, after: Map<string, StoreRow>) {
  const changed = [...before.values()].filter((row) => JSON.stringify(after.get(row.id)?.values) !== JSON.stringify(row.values));
  expect(changed.map((r) => r.values.title)).toEqual([]);
}

/** The rows stored now that were not before. */
const newRows = (before: Map<string, StoreRow>, after: Map<string, StoreRow>) => [...after.values()].filter((r) => !before.has(r.id));

describe("the grid addresses rows by identity on a 2,000-row sheet", () => {
  test("Add row, then paste a 3 × 11 Google Sheets block: only the new rows hold it, the 2,000 stored rows are unchanged", async () => {
    const before = await storedRows();
    const { context, page, errors } = await openEditor();
    try {
      const added = await addRow(page);
      await pasteIntoFocused(page, { text: TSV, html: HTML });
      await rowsDrawn(page, 53);
      await waitSaved(page);
      const after = await storedRows();
      expectUnchanged(before, after);
      const fresh = newRows(before, after);
      expect(fresh).toHaveLength(3);
      expect(fresh[0].id).toBe(added);
      expect(fresh.map((r) => FIELDS.map((f) => r.values[f] ?? ""))).toEqual(BLOCK);
      // Each new event got its own key; no stored row lost its own.
      expect(new Set(fresh.map((r) => r.values.eventKey)).size).toBe(3);
      // The grid shows the stored page first, then the three new rows in the block's order.
      const drawn = await page.locator("#sheet-editor tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row")));
      expect(drawn.slice(50)).toEqual(fresh.map((r) => r.id));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("Add row twice, type in the first, select both and fill down (Ctrl+D): only the new rows change", async () => {
    const before = await storedRows();
    const { context, page, errors } = await openEditor();
    try {
      const first = await addRow(page);
      await page.keyboard.type("Fanfare du Canal");
      const second = await addRow(page);
      const title = (id: string) => page.locator(`#sheet-editor tr[data-row="${id}"] textarea[aria-label^="Title,"]`);
      await title(first).click();
      await page.keyboard.press("Shift+ArrowDown");
      await page.locator("#sheet-editor [data-range]:text-is('2 × 1 cells selected')").waitFor();
      await page.keyboard.press("Control+d");
      await expect(title(second).inputValue()).resolves.toBe("Fanfare du Canal");
      await waitSaved(page);
      const after = await storedRows();
      expectUnchanged(before, after);
      expect(newRows(before, after).map((r) => [r.id, r.values.title])).toEqual([
        [first, "Fanfare du Canal"],
        [second, "Fanfare du Canal"],
      ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("Add row, paste the block, then undo (Ctrl+Z): the paste is taken back from the new rows only", async () => {
    const before = await storedRows();
    const { context, page, errors } = await openEditor();
    try {
      const added = await addRow(page);
      await pasteIntoFocused(page, { text: TSV, html: HTML });
      await rowsDrawn(page, 53);
      await waitSaved(page);
      expectUnchanged(before, await storedRows());
      await page.locator(`#sheet-editor tr[data-row="${added}"] textarea[aria-label^="Title,"]`).focus();
      await page.keyboard.press("Control+z");
      await rowsDrawn(page, 51);
      await expect(page.locator("#sheet-editor [data-count]").textContent()).resolves.toMatch(/^Showing 51 of /);
      await waitSaved(page);
      const after = await storedRows();
      expectUnchanged(before, after);
      // The row added by the button stays, empty again; the two the paste added are gone.
      const fresh = newRows(before, after);
      expect(fresh.map((r) => r.id)).toEqual([added]);
      expect(FIELDS.map((f) => fresh[0].values[f] ?? "")).toEqual(FIELDS.map(() => ""));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
