// The event sheet editor grid (see docs/console.md, "Event sheet editor"). Holds one window of the
// sheet: the first 50 rows (or the first 50 matching the search) come with the page, "Show 50
// more" and searches fetch further windows from GET /api/admin/sheet, so a 2,000-row sheet is never
// loaded whole. Autosaves only the changed cells to PATCH /api/admin/sheet 850 ms after the last
// edit and at least every 850 ms while typing. Every write names the revision the touched rows
// were read at; a 409 opens the conflict view with both values and nothing of the admin's is
// dropped until they choose.
// Spreadsheet handling on top (docs/console.md, "Grid"): range selection, copy and paste of a
// rectangular block as TSV or as an HTML table (adding rows as needed), fill down and right, clearing
// a range, sorting and filtering the shown rows by column without touching the stored order, column
// resizing and wrapping, multi-line cells; each paste, fill or clear is one undo step. Rows are
// addressed by id, never by position: a paste, fill, clear or undo writes to the rows the person
// sees, whatever is drawn or fetched meanwhile (see targetRows). Each cell
// shows what the sheet's rules read in it (or their warning), as the server sends it: the rules
// live on the server only.
// Drafts (docs/console.md, "Drafts in the editor"): each cell that differs from the published
// revision is marked, and each row visitors do not have yet, from the marks the server sends with
// every window and save; the count and the deleted rows come from GET /api/admin/sheet/drafts.
// Publish and Discard act on the whole working sheet. The comparison runs on the server only; a
// publish the server holds for renames or removals shows its review and "Publish anyway".
// The parts live in static/sheet-editor/, one file per part; each adds its methods to the editor.
// This module puts them together and starts an editor on every card.

// The modules the parts import, named here too so that the browser asks for every file at once
// instead of learning of these only once the parts have arrived (one round trip less).
import "./sheet-editor/shared.js";
import "./sheet-editor/clipboard.js";
import "./sheet-editor/range.js";
import { Editor, coreMethods } from "./sheet-editor/editor.js";
import { selectionMethods } from "./sheet-editor/selection.js";
import { keyboardMethods } from "./sheet-editor/keyboard.js";
import { batchMethods } from "./sheet-editor/batch.js";
import { columnMethods } from "./sheet-editor/columns.js";
import { drawMethods } from "./sheet-editor/draw.js";
import { editMethods } from "./sheet-editor/edits.js";
import { warningMethods } from "./sheet-editor/warnings.js";
import { saveMethods } from "./sheet-editor/save.js";
import { draftMethods } from "./sheet-editor/drafts.js";
import { conflictMethods } from "./sheet-editor/conflict.js";

// The imports only define the parts: the editor's own work starts here.
if (window.performance && performance.mark) performance.mark("sheet-editor:start");

Object.assign(Editor.prototype, coreMethods, selectionMethods, keyboardMethods, batchMethods, columnMethods, drawMethods, editMethods, warningMethods, saveMethods, draftMethods, conflictMethods);

function start() {
  document.querySelectorAll("[data-sheet-editor]:not([data-ready])").forEach(function (root) {
    root.setAttribute("data-ready", "");
    /** @type {any} */ (root).editor = new Editor(/** @type {HTMLElement} */ (root));
  });
}
// The script follows its card in the page and runs once loaded, so the card is parsed: draw it now.
start();
document.addEventListener("DOMContentLoaded", start);
document.addEventListener("htmx:load", start);
