// The sheet editor's batch edits: paste, fill, clear, copy and cut, each one undo step.

import { uuid } from "./shared.js";
import { parseHtmlTable, textBlock, toHtmlTable, toTsv } from "./clipboard.js";
import { blockWrites, clearWrites, fillWrites, filledBlock, pasteShape, rangeValues, rowsAfter, shownTargets } from "./range.js";

export const batchMethods = {
  // Writes many cells as one undo step (new rows first); `ops` are {rowId, key, value}.
  batch: function (cells, newRows) {
    var self = this;
    var steps = [];
    newRows.forEach(function (row) { self.insertRow(row); steps.push({ type: "add-row", row: row }); });
    cells.forEach(function (c) {
      var row = self.byId.get(c.rowId);
      if (!row) return;
      var before = row.values[c.key] || "";
      if (before === c.value) return;
      self.setCell(c.rowId, c.key, c.value, true);
      steps.push({ type: "cell", rowId: c.rowId, key: c.key, before: before, after: c.value });
    });
    if (steps.length) this.pushUndo({ type: "batch", steps: steps });
  },

  fill: function (direction) {
    var g = this.range();
    if (!g) return;
    var cells = fillWrites(g, direction, this.shown, this.columns);
    if (!cells) return;
    this.batch(cells, []);
    this.render();
  },

  clearRange: function () {
    var g = this.range();
    if (!g) return;
    this.batch(clearWrites(g, this.shown, this.columns), []);
    this.render();
  },

  // Copies the range (or the active cell when no text is selected in it) as TSV and as an HTML table.
  copy: function (e, cut) {
    var cell = e.target;
    if (cell.tagName !== "TEXTAREA" || !e.clipboardData) return;
    var g = this.range();
    if (!g) return;
    if (!this.isRange() && cell.selectionStart !== cell.selectionEnd) return;
    var values = rangeValues(g, this.shown, this.columns);
    e.preventDefault();
    e.clipboardData.setData("text/plain", toTsv(values));
    e.clipboardData.setData("text/html", toHtmlTable(values));
    if (cut) this.clearRange();
  },

  // Pastes a block at the top left of the range: an HTML table when the clipboard has one, else
  // tab-separated text. One value over a range fills it. Plain text for one cell is the browser's
  // own paste. The block is written by row id and column key to the rows the person sees from the
  // range's top row down (targetRows), taken when the paste happens: rows drawn or fetched while
  // it runs never move it onto other rows.
  paste: function (e) {
    var cell = e.target;
    if (cell.tagName !== "TEXTAREA" || !e.clipboardData) return;
    var html = e.clipboardData.getData("text/html");
    var text = e.clipboardData.getData("text/plain");
    var block = html ? parseHtmlTable(html) : null;
    if (!block) {
      var plain = textBlock(text);
      if (plain.single && !this.isRange()) return;
      block = plain.block;
    }
    e.preventDefault();
    var g = this.range();
    if (!g) return;
    var self = this;
    var shape = pasteShape(block, g);
    var height = shape.height;
    var keys = this.columns.slice(g.c0, g.c0 + shape.width).map(function (c) { return c.key; });
    this.targetRows(g.r0, height).then(function (target) {
      var rows = shape.fill ? filledBlock(block[0][0], height, keys.length) : block;
      self.pasteBlock(rows, target, keys, height);
    });
  },

  // The ids of the rows a block of `height` rows written from shown row `r0` lands in, and how many
  // new rows it needs past them: the shown rows from `r0` down; when the block runs past the last
  // shown row and that row is the last row of the stored window as the sheet orders it (no row
  // added here drawn after it, no sort or filter on), the next stored rows, fetched; else new rows.
  targetRows: function (r0, height) {
    var self = this;
    var shown = shownTargets(this.shown, r0, height);
    var ids = shown.ids;
    var missing = shown.missing;
    var last = this.shown[this.shown.length - 1];
    var tail = this.rows[this.rows.length - 1];
    var more = this.matching - this.offset - this.rows.length;
    var next = missing > 0 && more > 0 && last && tail && last.id === tail.id && !this.sort && !this.activeFilters();
    if (!next) return Promise.resolve({ ids: ids, missing: Math.max(0, missing) });
    return this.fetchWindow(Math.min(missing, more), true).then(function () {
      self.render();
      var fetched = rowsAfter(self.rows, tail, new Set(self.pending.deleteRowIds), missing);
      return { ids: ids.concat(fetched.map(function (r) { return r.id; })), missing: missing - fetched.length };
    });
  },

  // Writes `block` (rows of values for the column `keys`) into the `target` rows by id, adding the
  // new rows it needs at the end, as one undo step; then selects what was written.
  pasteBlock: function (block, target, keys, height) {
    var self = this;
    var ids = target.ids.slice();
    var newRows = [];
    for (var n = 0; n < target.missing; n++) {
      var values = {};
      this.columns.forEach(function (c) { values[c.key] = ""; });
      var fresh = { id: uuid(), values: values };
      newRows.push(fresh);
      ids.push(fresh.id);
    }
    // New rows are written with their cells: their values start empty, so each cell is one step.
    newRows.forEach(function (row) { self.byId.set(row.id, row); });
    this.batch(blockWrites(block, ids, keys, height), newRows);
    this.render();
    if (ids.length && keys.length) {
      this.sel = { anchor: { rowId: ids[0], key: keys[0] }, focus: { rowId: ids[height - 1], key: keys[keys.length - 1] } };
      this.paint();
    }
  },
};
