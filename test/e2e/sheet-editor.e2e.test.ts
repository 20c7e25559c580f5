// In Chromium, on a phone and a desktop: edit a cell of the event sheet editor and see "All changes
// saved"; publish and find the change on /; two admins edit the same cell and the second gets the
// conflict view, re-applies, and nothing is lost; an admin's autosave and an accepted submission
// never overwrite each other; the link an accepted submission gives opens the editor on its row;
// a big sheet is paged and searched through the server; cells and rows that differ from the
// published revision are marked, counted, published and discarded from the editor.

import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { sql } from "drizzle-orm";
import { loginAsAdmin } from "../helpers/auth.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { customColumnKey, readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { acceptSubmission } from "../../src/lib/submissions/moderation.ts";
import { listSubmissions } from "../../src/lib/submissions/moderation.ts";

// Each test is a whole editing session: many steps, several of them waiting out the autosave's
// pause. They take 5 to 25 s on a quiet two-core machine and can take twice that beside a busy
// database server, so they get more than the suite's 30 s.
setDefaultTimeout(90_000);

const { ctx, server, browser } = useBrowserApp({ env: { DATA_MODE: "remote" } });

const SHEET = [
  "Title,Date,Start Time,Location,Area,Categories,Event Key",
  "Sunset Set,2026-06-21,18:00,Quai de Valmy,10,House,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,Club X,11,Techno,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,Parvis,4,Classical,evt_cccccccccccccccc",
].join("\n");

beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published`);
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
const cellOf = (page: Page, rowId: string, label: string) => page.locator(`#sheet-editor tr[data-row="${rowId}"] textarea[aria-label^="${label},"]`);
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
  await page.locator("#sheet-editor table textarea").first().waitFor();
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
        // A title changed under its kept Event Key: Publish is held for the second confirmation.
        await page.locator("#sheet-editor").getByRole("button", { name: "Publish", exact: true }).click();
        const hold = page.locator("#sheet-editor [data-publish-hold]");
        await hold.locator("[data-publish-hold-text]:text-is('1 event renamed: review')").waitFor();
        await expect(hold.locator("[data-renamed-list] li").allTextContents()).resolves.toEqual(["Sunset Set → Sunset Set Live evt_aaaaaaaaaaaaaaaa"]);
        expect(await (await fetch(`${server.url}/`)).text()).not.toContain("Sunset Set Live");
        await hold.getByRole("button", { name: "Publish anyway" }).click();
        await page.locator("#sheet-editor [data-note]:text-is('Saved and homepage revalidated')").waitFor();
        const home = await (await fetch(`${server.url}/`)).text();
        expect(home).toContain("Sunset Set Live");
        // The held publish is the browser's one 409 (it logs every 4xx answer).
        expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
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
      await page.locator("#sheet-editor [data-count]:text-is('Showing 1 of 1 rows matching the search (3 in all).')").waitFor();
      await page.getByPlaceholder("Search rows").fill("");
      await page.locator("#sheet-editor [data-count]:text-is('Showing 3 of 3 rows.')").waitFor();
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

  test("desktop: a column added with a long name gets the store's key (the server's slug bound, sent with the page)", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const label = "Quartier et ambiance de la soirée du vingt et un juin à Paris";
      await page.getByRole("button", { name: "Add column" }).click();
      await page.getByLabel("Column name").fill(label);
      await page.locator("#sheet-editor [data-add-column-form]").getByRole("button", { name: "Add", exact: true }).click();
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      const added = (await readStoreSheet(ctx.deps.db))!.columns.find((c) => c.label === label);
      // The key is the store's own for this label (its slug cut at the store's bound, over 45
      // characters here), then the editor's "_" and 6-character suffix.
      const base = customColumnKey(label, new Set());
      expect(base.length - "custom_".length).toBeGreaterThan(45);
      expect(added?.key).toMatch(new RegExp(`^${base}_[0-9a-f]{6}$`));
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

  test("two admins edit the same cell: the second keeps theirs; their value shows, the second's other edit is saved", async () => {
    const first = await adminContext("desktop");
    const second = await adminContext("desktop");
    try {
      const a = await openEditor(first);
      const b = await openEditor(second);
      await cell(a.page, "Late Club", "Location").fill("Club A");
      await a.page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      await cell(b.page, "Sunset Set", "Notes").fill("From B");
      await cell(b.page, "Late Club", "Location").fill("Club B");
      const conflict = b.page.locator("#sheet-editor [data-conflict]");
      await conflict.getByRole("button", { name: "Keep theirs" }).click();
      await b.page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      await expect(cell(b.page, "Late Club", "Location").inputValue()).resolves.toBe("Club A");
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club A");
      expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "notes")).toBe("From B");
      // B's next edit of that cell is based on the value B now sees: no conflict.
      await cell(b.page, "Late Club", "Location").fill("Club C");
      await b.page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club C");
      expect([...a.errors, ...b.errors.filter((e) => !e.includes("409"))]).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test("desktop: keyboard like a spreadsheet (arrows, Enter, Tab, Escape); a cell edit is undone and redone", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement).getAttribute("aria-label"));
      await cell(page, "Sunset Set", "Title").click();
      await page.keyboard.press("ArrowDown");
      expect(await focused()).toBe("Title, row 2");
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowRight");
      expect(await focused()).toBe("Curated, row 2");
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("Date, row 2");
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowLeft");
      expect(await focused()).toBe("Curated, row 2");
      await page.keyboard.press("ArrowUp");
      expect(await focused()).toBe("Curated, row 1");
      await page.keyboard.press("Tab");
      expect(await focused()).toBe("Date, row 1");
      // Escape puts back the value the cell had when it was entered; nothing is saved.
      await page.keyboard.press("Control+A");
      await page.keyboard.type("2026-06-30");
      await page.keyboard.press("Escape");
      await expect(cell(page, "Sunset Set", "Date").inputValue()).resolves.toBe("2026-06-21");
      // Enter commits and moves down; Undo and Redo then save each state.
      await cell(page, "Late Club", "Location").click();
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Club Y");
      await page.keyboard.press("Enter");
      expect(await focused()).toBe("Location, row 3");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club Y");
      await page.getByRole("button", { name: "Undo" }).click();
      await expect(cell(page, "Late Club", "Location").inputValue()).resolves.toBe("Club X");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club X");
      await page.getByRole("button", { name: "Redo" }).click();
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club Y");
      expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "date")).toBe("2026-06-21");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const viewport of ["desktop", "phone"] as const) test(`${viewport}: the editor link of an accepted submission opens the editor on that row (?search=)`, async () => {
    const outcome = await submitEvent(
      ctx.deps,
      { eventName: `Accepted In Browser ${viewport}`, date: "2026-06-21", startTime: "20:00", location: `Canal ${viewport}`, hostEmail: `${viewport}@example.com`, proofLink: "canal.example", arrondissement: "10" },
      viewport === "phone" ? "192.0.2.12" : "192.0.2.10",
    );
    expect(outcome.kind).toBe("received");
    const context = await adminContext(viewport);
    try {
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      await page.goto(`${server.url}/admin/content`);
      const card = page.locator("#submissions-card");
      await card.getByRole("button", { name: "Accept" }).first().click();
      await card.getByRole("link", { name: "Open in the editor" }).first().click();
      await page.waitForURL(/\/admin\/content\?search=evt_/);
      await page.locator("#sheet-editor table textarea").first().waitFor();
      const key = new URL(page.url()).searchParams.get("search")!;
      await expect(page.getByPlaceholder("Search rows").inputValue()).resolves.toBe(key);
      await expect(page.locator("#sheet-editor [data-count]").textContent()).resolves.toBe("Showing 1 of 1 rows matching the search (4 in all).");
      const rowId = await rowIdOf(key);
      await expect(cellOf(page, rowId, "Title").inputValue()).resolves.toBe(`Accepted In Browser ${viewport}`);
      await expect(page.locator("#sheet-editor tbody tr").count()).resolves.toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("an accepted submission landing between an admin's edits is kept, and the admin's edits too", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      await cell(page, "Late Club", "Notes").fill("Before the accept");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      await submitEvent(
        ctx.deps,
        { eventName: "Accepted Meanwhile", date: "2026-06-22", startTime: "21:00", location: "Parc", hostEmail: "host@example.com", proofLink: "parc.example", arrondissement: "19" },
        "192.0.2.11",
      );
      const [pending] = await listSubmissions(ctx.deps.db, "pending");
      expect((await acceptSubmission(ctx.deps, pending.id, { reviewedBy: "other-admin" })).ok).toBe(true);
      // The admin's copy is now behind; their next edit is merged, the accepted row stays.
      await cell(page, "Late Club", "Notes").fill("After the accept");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      const titles = (await readStoreSheet(ctx.deps.db))!.rows.map((r) => r.values.title);
      expect(titles).toEqual(["Sunset Set", "Late Club", "Morning Choir", "Accepted Meanwhile"]);
      expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "notes")).toBe("After the accept");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a 120-row sheet: 50 rows drawn, Show 50 more fetches the next page, search finds a row past the first page, its edit saves", async () => {
    const lines = ["Title,Date,Start Time,Location,Area,Event Key"];
    for (let i = 1; i <= 120; i++) lines.push(`Row ${String(i).padStart(3, "0")},2026-06-21,18:00,Place ${i},${(i % 20) + 1},evt_${String(i).padStart(16, "0")}`);
    const saved = await saveStoreSheet(ctx.deps.db, lines.join("\n"), { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
    if (!saved.ok) throw new Error(saved.error);
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const count = page.locator("#sheet-editor [data-count]");
      await expect(count.textContent()).resolves.toBe("Showing 50 of 120 rows.");
      await expect(page.locator("#sheet-editor tbody tr").count()).resolves.toBe(50);
      await page.getByRole("button", { name: "Show 50 more" }).click();
      await page.locator("#sheet-editor [data-count]:text-is('Showing 100 of 120 rows.')").waitFor();
      await expect(page.locator("#sheet-editor tbody tr").last().locator("textarea").first().inputValue()).resolves.toBe("Row 100");
      await page.getByPlaceholder("Search rows").fill("place 117");
      await page.locator("#sheet-editor [data-count]:text-is('Showing 1 of 1 rows matching the search (120 in all).')").waitFor();
      await expect(page.locator("#sheet-editor .row-number").first().textContent()).resolves.toBe("117");
      await cell(page, "Row 117", "Notes").fill("Found by search");
      await page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();
      expect(await storedValue("evt_0000000000000117", "notes")).toBe("Found by search");
      // LIKE wildcards in the search are taken literally.
      await page.getByPlaceholder("Search rows").fill("%");
      await page.locator("#sheet-editor [data-count]:text-is('Showing 0 of 0 rows matching the search (120 in all).')").waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Pastes into a cell as the browser does on Ctrl+V: a paste event carrying the clipboard's text and, when given, its HTML. */
async function pasteInto(page: Page, rowId: string, label: string, clip: { text: string; html?: string }) {
  const target = cellOf(page, rowId, label);
  await target.click();
  await target.evaluate((node, data) => {
    const transfer = new DataTransfer();
    transfer.setData("text/plain", data.text);
    if (data.html) transfer.setData("text/html", data.html);
    node.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, clip);
}

/** What a copy from the grid puts on the clipboard (the copy event the browser sends on Ctrl+C). */
async function copyFrom(page: Page, rowId: string, label: string): Promise<{ text: string; html: string }> {
  return cellOf(page, rowId, label).evaluate((node) => {
    const transfer = new DataTransfer();
    node.dispatchEvent(new ClipboardEvent("copy", { clipboardData: transfer, bubbles: true, cancelable: true }));
    return { text: transfer.getData("text/plain"), html: transfer.getData("text/html") };
  });
}

// As Google Sheets writes a copied block (its wrapper, style and colgroup included); a line break in a cell is <br>.
const GOOGLE_SHEETS_HTML =
  '<meta charset="utf-8"><google-sheets-html-origin><style type="text/css"><!--td {border: 1px solid #cccccc;}br {mso-data-placement:same-cell;}--></style>' +
  '<table xmlns="http://www.w3.org/1999/xhtml" cellspacing="0" cellpadding="0" dir="ltr" border="1" data-sheets-root="1"><colgroup><col width="100"/><col width="100"/></colgroup><tbody>' +
  '<tr style="height:21px;"><td style="overflow:hidden;padding:2px 3px;">Quai de<br>Jemmapes</td><td style="text-align:right;">10</td></tr>' +
  '<tr style="height:21px;"><td>Club &amp; Co</td><td style="text-align:right;">11</td></tr></tbody></table>';
// As LibreOffice Calc writes one (cells wrap their text in <font>, paragraphs for line breaks).
const LIBREOFFICE_HTML =
  '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN"><html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"/></head><body>' +
  '<table cellspacing="0" border="0"><colgroup width="85"></colgroup><tr><td height="17" align="left"><font face="Liberation Sans">Rooftop</font></td></tr></table></body></html>';

const waitSaved = (page: Page) => page.locator("#sheet-editor [data-status]:text-is('All changes saved')").waitFor();

describe("the grid works like a spreadsheet", () => {
  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: paste a TSV block (rows added as needed), then an HTML table from Google Sheets and LibreOffice; copy out; undo a paste`, async () => {
      const context = await adminContext(viewport);
      try {
        const { page, errors } = await openEditor(context);
        const late = await rowIdOf("Late Club");
        // Date, Date To, Start Time over rows 2 and 3, and a fourth row that does not exist yet.
        await pasteInto(page, late, "Date", { text: "2026-06-22\t\t20h30\n2026-06-23\t\t21:00\n2026-06-24\t\t\"22:00\"\n" });
        await page.locator("#sheet-editor [data-count]:text-is('Showing 4 of 4 rows.')").waitFor();
        await waitSaved(page);
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "date")).toBe("2026-06-22");
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "startTime")).toBe("20h30");
        expect(await storedValue("evt_cccccccccccccccc", "date")).toBe("2026-06-23");
        const rows = (await readStoreSheet(ctx.deps.db))!.rows;
        expect(rows).toHaveLength(4);
        expect(rows[3].values).toMatchObject({ date: "2026-06-24", startTime: "22:00", eventKey: expect.stringMatching(/^evt_/) });
        // The rules' reading of the pasted time shows under it.
        await expect(page.locator(`#sheet-editor tr[data-row="${late}"] td:has(textarea[aria-label^="Start Time,"]) .cell-note`).textContent()).resolves.toBe("20:30");

        // An HTML table (a line break in a cell kept), over Location and Area of rows 1 and 2.
        const sunset = await rowIdOf("Sunset Set");
        await pasteInto(page, sunset, "Location", { text: "Quai de Jemmapes\t10\nClub & Co\t11", html: GOOGLE_SHEETS_HTML });
        await waitSaved(page);
        expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "location")).toBe("Quai de\nJemmapes");
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "location")).toBe("Club & Co");
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "area")).toBe("11");
        await pasteInto(page, await rowIdOf("Morning Choir"), "Location", { text: "Rooftop", html: LIBREOFFICE_HTML });
        await waitSaved(page);
        expect(await storedValue("evt_cccccccccccccccc", "location")).toBe("Rooftop");

        // Copy out: Shift+click makes a range; the clipboard gets TSV (quoted where needed) and an HTML table.
        await cellOf(page, sunset, "Location").click();
        await cellOf(page, late, "Area").click({ modifiers: ["Shift"] });
        await expect(page.locator("#sheet-editor [data-range]").textContent()).resolves.toBe("2 × 2 cells selected");
        const copied = await copyFrom(page, sunset, "Location");
        expect(copied.text).toBe('"Quai de\nJemmapes"\t10\nClub & Co\t11');
        expect(copied.html).toBe("<table><tr><td>Quai de<br>Jemmapes</td><td>10</td></tr><tr><td>Club &amp; Co</td><td>11</td></tr></table>");

        // Undo takes the whole last paste back in one step (and the saved sheet follows).
        await page.getByRole("button", { name: "Undo" }).click();
        await expect(cellOf(page, await rowIdOf("Morning Choir"), "Location").inputValue()).resolves.toBe("Parvis");
        await waitSaved(page);
        expect(await storedValue("evt_cccccccccccccccc", "location")).toBe("Parvis");
        await page.getByRole("button", { name: "Undo" }).click();
        await waitSaved(page);
        expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "location")).toBe("Quai de Valmy");
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "area")).toBe("11");
        await screenshot(page, `sheet-editor-paste-${viewport}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    test(`${viewport}: fill down, sort then edit the right row, a bad date flagged in place and listed in the warnings panel`, async () => {
      const context = await adminContext(viewport);
      try {
        const { page, errors } = await openEditor(context);
        const [sunset, late, choir] = [await rowIdOf("Sunset Set"), await rowIdOf("Late Club"), await rowIdOf("Morning Choir")];
        // Fill down: the range's first row into the others, as one step.
        await cellOf(page, sunset, "Area").click();
        await cellOf(page, choir, "Area").click({ modifiers: ["Shift"] });
        await page.getByRole("button", { name: "Fill down" }).click();
        await waitSaved(page);
        expect([await storedValue("evt_bbbbbbbbbbbbbbbb", "area"), await storedValue("evt_cccccccccccccccc", "area")]).toEqual(["10", "10"]);
        // Ctrl+D with one cell copies the cell above.
        await cellOf(page, late, "Price").click();
        await cellOf(page, sunset, "Price").fill("12 €");
        await cellOf(page, late, "Price").click();
        await page.keyboard.press("Control+D");
        await waitSaved(page);
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "price")).toBe("12 €");

        // Sort by Title (shown rows only): the first row is then Late Club; an edit there lands on Late Club.
        await page.locator('#sheet-editor th button[data-key="title"]').click();
        await expect(page.locator("#sheet-editor tbody tr").first().getAttribute("data-row")).resolves.toBe(late);
        await expect(page.locator('#sheet-editor th[aria-sort="ascending"]').count()).resolves.toBe(1);
        await page.locator("#sheet-editor tbody tr").first().locator('textarea[aria-label^="Notes,"]').fill("Sorted edit");
        await page.locator('#sheet-editor th button[data-key="title"]').click();
        await expect(page.locator("#sheet-editor tbody tr").first().getAttribute("data-row")).resolves.toBe(sunset);
        await page.locator("#sheet-editor tbody tr").first().locator('textarea[aria-label^="Notes,"]').fill("Descending edit");
        await waitSaved(page);
        expect(await storedValue("evt_bbbbbbbbbbbbbbbb", "notes")).toBe("Sorted edit");
        expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "notes")).toBe("Descending edit");
        // The row numbers stay the sheet's, and the stored order is unchanged.
        await expect(page.locator("#sheet-editor tbody tr").first().locator(".row-number").textContent()).resolves.toBe("1");
        expect((await readStoreSheet(ctx.deps.db))!.rows.map((r) => r.values.title)).toEqual(["Sunset Set", "Late Club", "Morning Choir"]);
        // A column filter narrows the shown rows.
        await page.getByRole("button", { name: "Filter columns" }).click();
        await page.getByLabel("Filter Location").fill("club");
        await page.locator("#sheet-editor [data-count]:text-is('Showing 3 of 3 rows. (2 hidden by the column filters)')").waitFor();
        await page.getByRole("button", { name: "Filter columns" }).click();

        // A bad date is flagged where it is typed, with the rule's own words, and listed in the panel.
        await cellOf(page, choir, "Date").fill("31/02/2026");
        await waitSaved(page);
        const dateCell = page.locator(`#sheet-editor tr[data-row="${choir}"] td:has(textarea[aria-label^="Date,"])`);
        await expect(dateCell.locator(".cell-note").textContent()).resolves.toBe('⚠ Date "31/02/2026" is not a real calendar date');
        await expect(cellOf(page, choir, "Date").getAttribute("aria-invalid")).resolves.toBe("true");
        await expect(page.locator(`#sheet-editor tr[data-row="${sunset}"] td:has(textarea[aria-label^="Date,"]) .cell-note`).textContent()).resolves.toMatch(/21/);
        await page.locator("#sheet-editor [data-warnings] summary").click();
        const jump = page.locator("#sheet-editor [data-warnings] button[data-action=jump]");
        await expect(jump.first().textContent()).resolves.toBe("Row 3 · Date");
        await page.locator("#sheet-editor [data-warning-count]:text-is('1')").waitFor();
        await jump.first().click();
        await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe("Date, row 3");
        await screenshot(page, `sheet-editor-warnings-${viewport}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test("desktop: Shift+arrows select a range, Delete clears it and Ctrl+Z brings it back; Alt+Enter writes a line break; a column resized by dragging; Wrap text", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const [sunset, late] = [await rowIdOf("Sunset Set"), await rowIdOf("Late Club")];
      await cellOf(page, sunset, "Location").click();
      await page.keyboard.press("Shift+ArrowDown");
      await page.keyboard.press("End");
      await page.keyboard.press("Shift+ArrowRight");
      await expect(page.locator("#sheet-editor [data-range]").textContent()).resolves.toBe("2 × 2 cells selected");
      await expect(page.locator("#sheet-editor td.in-range").count()).resolves.toBe(4);
      await page.keyboard.press("Delete");
      await expect(cellOf(page, late, "Area").inputValue()).resolves.toBe("");
      await waitSaved(page);
      expect([await storedValue("evt_aaaaaaaaaaaaaaaa", "location"), await storedValue("evt_bbbbbbbbbbbbbbbb", "area")]).toEqual(["", ""]);
      await page.keyboard.press("Control+Z");
      await expect(cellOf(page, late, "Area").inputValue()).resolves.toBe("11");
      await waitSaved(page);
      expect([await storedValue("evt_aaaaaaaaaaaaaaaa", "location"), await storedValue("evt_bbbbbbbbbbbbbbbb", "area")]).toEqual(["Quai de Valmy", "11"]);

      // A multi-line note: Alt+Enter breaks the line, Enter then moves down.
      await cellOf(page, sunset, "Notes").click();
      await page.keyboard.type("First line");
      await page.keyboard.press("Alt+Enter");
      await page.keyboard.type("Second line");
      await page.keyboard.press("Enter");
      await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe("Notes, row 2");
      await waitSaved(page);
      expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "notes")).toBe("First line\nSecond line");

      // Drag the right edge of the Location header 120 px to the right.
      const header = page.locator('#sheet-editor th:has(button[data-key="location"])');
      await page.locator('#sheet-editor [data-resize="location"]').scrollIntoViewIfNeeded();
      const before = (await header.boundingBox())!.width;
      const edge = (await page.locator('#sheet-editor [data-resize="location"]').boundingBox())!;
      await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
      await page.mouse.down();
      await page.mouse.move(edge.x + edge.width / 2 + 120, edge.y + edge.height / 2, { steps: 4 });
      await page.mouse.up();
      expect(Math.round((await header.boundingBox())!.width - before)).toBeGreaterThanOrEqual(110);

      // Wrap text shows every line of every cell.
      const notes = cellOf(page, sunset, "Notes");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const oneLine = (await notes.boundingBox())!.height;
      await page.getByRole("button", { name: "Wrap text" }).click();
      expect((await notes.boundingBox())!.height).toBeGreaterThan(oneLine + 10);
      await screenshot(page, "sheet-editor-wrap-desktop");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("desktop: a 200 × 10 block pasted at once is saved as one patch and one revision", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const patches: string[] = [];
      page.on("request", (r) => { if (r.method() === "PATCH") patches.push(r.url()); });
      const [{ n: before }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_revisions`);
      const block = Array.from({ length: 200 }, (_, i) => [`Bulk ${i + 1}`, "", "2026-06-21", "", "20:00", "", "", `Place ${i}`, String((i % 20) + 1), "5 €"].join("\t")).join("\n");
      await pasteInto(page, await rowIdOf("Sunset Set"), "Title", { text: block });
      await page.locator("#sheet-editor [data-count]:text-is('Showing 200 of 200 rows.')").waitFor();
      await waitSaved(page);
      expect(patches).toHaveLength(1);
      const rows = (await readStoreSheet(ctx.deps.db))!.rows;
      expect(rows).toHaveLength(200);
      expect(rows[199].values).toMatchObject({ title: "Bulk 200", location: "Place 199", price: "5 €" });
      const [{ n: after }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_revisions`);
      expect(after - before).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("drafts in the editor", () => {
  const drafts = (page: Page) => page.locator("#sheet-editor [data-drafts]");
  const td = (page: Page, rowId: string, label: string) => page.locator(`#sheet-editor tr[data-row="${rowId}"] td:has(textarea[aria-label^="${label},"])`);
  const marked = (page: Page) => page.locator("#sheet-editor td.cell-draft");
  const countIs = (page: Page, text: string) => page.locator(`#sheet-editor [data-drafts-count]:text-is("${text}")`).waitFor();

  for (const viewport of ["desktop", "phone"] as const) {
    test(`${viewport}: edits are marked against the published sheet and counted; Publish clears the marks, an edit after it marks again; Discard puts the sheet back`, async () => {
      const context = await adminContext(viewport);
      try {
        const { page, errors } = await openEditor(context);
        await countIs(page, "Everything is published: visitors see the sheet as it is here.");
        await expect(marked(page).count()).resolves.toBe(0);
        const [sunset, late] = [await rowIdOf("Sunset Set"), await rowIdOf("Late Club")];

        // A cell edit, a new row and a deleted row.
        await cellOf(page, late, "Location").fill("Club Y");
        await waitSaved(page);
        await td(page, late, "Location").and(page.locator(".cell-draft")).waitFor();
        await expect(td(page, late, "Location").getAttribute("title")).resolves.toBe("Not published yet. Visitors see: \u201cClub X\u201d");
        await expect(cellOf(page, late, "Location").getAttribute("aria-description")).resolves.toBe("Not published yet. Visitors see: \u201cClub X\u201d");
        await expect(marked(page).count()).resolves.toBe(1);
        await page.getByRole("button", { name: "Add row" }).click();
        await page.keyboard.type("Brand new");
        await page.keyboard.press("Tab");
        await page.keyboard.press("Tab");
        await page.keyboard.type("2026-06-21");
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByRole("button", { name: /Delete row 3 Morning Choir/ }).click();
        await waitSaved(page);
        await countIs(page, "3 unpublished changes (1 row added, 1 row changed, 1 row deleted). Marked cells differ from what visitors see.");
        const added = await rowIdOf("Brand new");
        await expect(page.locator(`#sheet-editor tr[data-row="${added}"]`).getAttribute("class")).resolves.toBe("row-draft");
        await expect(page.locator(`#sheet-editor tr[data-row="${added}"] .row-number`).textContent()).resolves.toContain("New row, not published yet");
        await drafts(page).locator("summary").click();
        await expect(drafts(page).locator("[data-drafts-deleted-list] li").allTextContents()).resolves.toEqual(["Morning Choir \u00b7 evt_cccccccccccccccc"]);
        // The Publishing card above counts the same.
        await page.locator('#publishing[data-unpublished="3"]').waitFor();
        await screenshot(page, `sheet-editor-drafts-${viewport}`);

        // Publish from the editor: a removed row asks for the second confirmation first, and
        // nothing is public until it is given; then the marks clear, visitors see the sheet.
        await page.locator("#sheet-editor").getByRole("button", { name: "Publish", exact: true }).click();
        const hold = page.locator("#sheet-editor [data-publish-hold]");
        await hold.locator("[data-publish-hold-text]:text-is('1 event removed: review')").waitFor();
        await expect(hold.locator("[data-removed-list] li").allTextContents()).resolves.toEqual(["Morning Choir evt_cccccccccccccccc"]);
        expect(await (await fetch(`${server.url}/`)).text()).toContain("Morning Choir");
        await hold.getByRole("button", { name: "Publish anyway" }).click();
        await page.locator("#sheet-editor [data-note]:text-is('Saved and homepage revalidated')").waitFor();
        await expect(hold.isHidden()).resolves.toBe(true);
        await countIs(page, "Everything is published: visitors see the sheet as it is here.");
        await expect(marked(page).count()).resolves.toBe(0);
        await expect(page.locator("#sheet-editor tr.row-draft").count()).resolves.toBe(0);
        const home = await (await fetch(`${server.url}/`)).text();
        expect([home.includes("Club Y"), home.includes("Brand new"), home.includes("Morning Choir")]).toEqual([true, true, false]);
        await expect(drafts(page).locator("[data-action=discard]").isDisabled()).resolves.toBe(true);

        // An edit after the publish is marked again, against the new published value.
        await cellOf(page, sunset, "Start Time").fill("18:45");
        await waitSaved(page);
        await td(page, sunset, "Start Time").and(page.locator(".cell-draft")).waitFor();
        await expect(td(page, sunset, "Start Time").getAttribute("title")).resolves.toBe("Not published yet. Visitors see: \u201c18:00\u201d");
        await cellOf(page, late, "Location").fill("Club Z");
        await waitSaved(page);
        await expect(td(page, late, "Location").getAttribute("title")).resolves.toBe("Not published yet. Visitors see: \u201cClub Y\u201d");
        await countIs(page, "2 unpublished changes (2 rows changed). Marked cells differ from what visitors see.");

        // Discard from the editor, an edit not yet saved included: the grid shows what visitors see.
        await cellOf(page, sunset, "Notes").fill("Not saved yet");
        page.once("dialog", (dialog) => void dialog.accept());
        await drafts(page).getByRole("button", { name: "Discard changes" }).click();
        // Two saved drafts, three when the autosave of the last edit went out before the click.
        await page.locator("#sheet-editor [data-note]").filter({ hasText: /^Discarded [23] unpublished changes: the sheet is as visitors see it\.$/ }).waitFor();
        await countIs(page, "Everything is published: visitors see the sheet as it is here.");
        await expect(cellOf(page, sunset, "Start Time").inputValue()).resolves.toBe("18:00");
        await expect(cellOf(page, late, "Location").inputValue()).resolves.toBe("Club Y");
        await expect(cellOf(page, sunset, "Notes").inputValue()).resolves.toBe("");
        await expect(marked(page).count()).resolves.toBe(0);
        expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "notes")).toBe("");
        expect(await storedValue("evt_aaaaaaaaaaaaaaaa", "startTime")).toBe("18:00");
        // The held publish is the browser's one 409 (it logs every 4xx answer).
        expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test("desktop: publishing on the Publishing card clears the editor's marks", async () => {
    const context = await adminContext("desktop");
    try {
      const { page, errors } = await openEditor(context);
      const late = await rowIdOf("Late Club");
      await cellOf(page, late, "Area").fill("12");
      await waitSaved(page);
      await td(page, late, "Area").and(page.locator(".cell-draft")).waitFor();
      await page.locator('#publishing[data-unpublished="1"]').waitFor();
      await page.locator("#publishing").getByRole("button", { name: "Publish" }).click();
      await page.locator("#publishing").getByText("Published: visitors now see the sheet").waitFor();
      await countIs(page, "Everything is published: visitors see the sheet as it is here.");
      await expect(marked(page).count()).resolves.toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
