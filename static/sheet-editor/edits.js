// The sheet editor's edits in memory: cell values, undo and redo, rows and columns added or deleted.

import { uuid } from "./shared.js";

export const editMethods = {
  cellInput: function (rowId, key) {
    return this.$('[data-grid-wrap] textarea[data-row="' + rowId + '"][data-key="' + key + '"]');
  },

  // Records one cell value: in memory, in the pending set, and (when asked) in the grid.
  setCell: function (rowId, key, value, redraw) {
    var row = this.byId.get(rowId);
    if (!row) return;
    row.values[key] = value;
    // The base of a cell edit is the revision this admin last saw that cell at, kept from the
    // first unsaved edit of the cell.
    var k = rowId + "\u0000" + key;
    var had = this.pending.cells.get(k);
    this.pending.cells.set(k, { rowId: rowId, key: key, value: value, baseRevision: had ? had.baseRevision : this.baseOf(row, key) });
    var input = this.cellInput(rowId, key);
    if (this.noteOf(rowId, key) && !this.noteOf(rowId, key).stale) {
      this.staleNote(rowId, key);
      if (input) this.drawNote(input.parentElement, rowId, key);
    }
    if (redraw && input) { input.value = value; input.setAttribute("data-before", value); }
    this.changed();
  },

  // The revision a stored cell was last seen at: when its row was read, or when this admin saved it.
  baseOf: function (row, key) {
    if (row.seen === undefined) return undefined;
    return Math.max(row.seen, (row.cellSeen && row.cellSeen[key]) || 0);
  },

  pushUndo: function (op) {
    this.undoStack.push(op);
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.redoStack = [];
    this.$("[data-action=undo]").disabled = false;
    this.$("[data-action=redo]").disabled = true;
  },

  apply: function (op, reverse) {
    var self = this;
    if (op.type === "cell") this.setCell(op.rowId, op.key, reverse ? op.before : op.after, true);
    else if (op.type === "add-row") { if (reverse) this.removeRow(op.row.id); else this.insertRow(op.row); }
    else if (op.type === "delete-row") { if (reverse) this.insertRow(op.row); else this.removeRow(op.row.id); }
    else if (op.type === "batch") (reverse ? op.steps.slice().reverse() : op.steps).forEach(function (step) { self.apply(step, reverse); });
  },

  undo: function () {
    var op = this.undoStack.pop();
    if (!op) return;
    this.apply(op, true);
    this.redoStack.push(op);
    this.render();
  },

  redo: function () {
    var op = this.redoStack.pop();
    if (!op) return;
    this.apply(op, false);
    this.undoStack.push(op);
    this.render();
  },

  // A row (re)inserted: a deleted stored row is simply kept; a new row is sent with all its cells.
  insertRow: function (row) {
    var p = this.pending;
    var wasDeleted = p.deleteRowIds.indexOf(row.id);
    if (wasDeleted !== -1) p.deleteRowIds.splice(wasDeleted, 1);
    else {
      p.addRows.push(row);
      if (!this.byId.has(row.id)) this.byId.set(row.id, row);
      if (this.added.indexOf(row) === -1) this.added.push(row);
    }
    this.changed();
  },

  removeRow: function (id) {
    var p = this.pending;
    var added = p.addRows.findIndex(function (r) { return r.id === id; });
    if (added !== -1) {
      p.addRows.splice(added, 1);
      this.byId.delete(id);
      this.added = this.added.filter(function (r) { return r.id !== id; });
      p.cells.forEach(function (v, k) { if (v.rowId === id) p.cells.delete(k); });
    } else if (p.deleteRowIds.indexOf(id) === -1) {
      p.deleteRowIds.push(id);
    }
    this.changed();
  },

  // A new row goes at the end of the sheet; the grid shows it under the current page.
  addRow: function () {
    var values = {};
    this.columns.forEach(function (c) { values[c.key] = ""; });
    var row = { id: uuid(), values: values };
    this.insertRow(row);
    this.pushUndo({ type: "add-row", row: row });
    var self = this;
    var focus = function () {
      var input = self.cellInput(row.id, "title");
      if (input) { input.focus(); input.scrollIntoView({ block: "nearest" }); }
    };
    if (this.query || this.activeFilters()) {
      this.query = "";
      this.filters = {};
      this.$("[data-search]").value = "";
      return this.fetchWindow(this.rules.page, false).then(function () { self.render(); focus(); });
    }
    this.render();
    focus();
  },

  deleteRow: function (id) {
    var row = this.byId.get(id);
    if (!row) return;
    if (!window.confirm("Delete the row \u201c" + (row.values.title || "(no title)") + "\u201d?")) return;
    this.removeRow(id);
    this.pushUndo({ type: "delete-row", row: row });
    this.render();
  },

  addColumn: function (label) {
    var slug = label.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, this.rules.customKeySlug) || "column";
    var key = "custom_" + slug + "_" + uuid().slice(0, 6);
    var column = { key: key, label: label, isCore: false, isRequired: false };
    this.columns.push(column);
    this.byId.forEach(function (r) { r.values[key] = ""; });
    this.pending.addColumns.push({ key: key, label: label });
    this.changed();
    this.render();
  },
};
