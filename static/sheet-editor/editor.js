// The sheet editor's core: one editor per card, the window of rows it holds, its fetches and its
// event wiring. The other parts add their methods to its prototype (see static/sheet-editor.js).

import { API } from "./shared.js";

/**
 * One editor over a card: the window of rows it holds, its pending edits, its undo steps.
 * @constructor
 * @this {any}
 * @param {HTMLElement} root
 */
export function Editor(root) {
  this.root = root;
  var sheet = JSON.parse(root.querySelector("[data-sheet]").getAttribute("data-sheet"));
  // The server's rules (page size, largest window, custom-column slug bound) come with the page.
  this.rules = JSON.parse(root.querySelector("[data-rules]").getAttribute("data-rules"));
  this.pending = { cells: new Map(), addRows: [], deleteRowIds: [], addColumns: [] };
  this.byId = new Map();
  this.rows = [];
  this.added = [];
  this.notes = {};
  this.drafts = {};
  this.latest = 0;
  this.offset = 0;
  this.window(sheet, false);
  this.undoStack = [];
  this.redoStack = [];
  this.query = (sheet.search || "").trim();
  this.saving = false;
  this.firstEditAt = 0;
  this.timer = 0;
  this.fetchSeq = 0;
  this.sort = null;
  this.filters = {};
  this.filtering = false;
  this.widths = {};
  this.sel = null;
  this.shown = [];
  this.bind();
  this.render();
  if (window.performance && performance.mark) performance.mark("sheet-editor:first-grid");
  // The count reads the whole sheet on the server: asked once the grid is usable.
  this.loadDrafts();
}

/** The core's methods (static/sheet-editor.js puts every part's on the prototype). */
export const coreMethods = {
  // Takes a window of rows from the server. Each row remembers the revision it was read at (the
  // base of its edits); rows already known keep their object, with pending edits put back on top.
  window: function (sheet, append) {
    var self = this;
    var seen = sheet.meta.revision;
    this.latest = Math.max(this.latest, seen);
    this.total = sheet.meta.rowCount;
    this.matching = sheet.matching;
    if (!append) this.offset = sheet.offset || 0;
    var known = new Set(sheet.columns.map(function (c) { return c.key; }));
    // Columns added here and not saved yet stay.
    this.columns = sheet.columns.concat(this.pending.addColumns.filter(function (c) { return !known.has(c.key); }).map(function (c) { return { key: c.key, label: c.label, isCore: false, isRequired: false }; }));
    var list = sheet.rows.map(function (r) {
      var row = self.byId.get(r.id);
      if (!row) { row = { id: r.id, values: {} }; self.byId.set(r.id, row); }
      row.values = Object.assign({}, r.values);
      row.position = r.position;
      row.seen = seen;
      self.notes[r.id] = (sheet.notes && sheet.notes[r.id]) || {};
      self.drafts[r.id] = (sheet.drafts && sheet.drafts[r.id]) || null;
      return row;
    });
    this.pending.cells.forEach(function (c) {
      var row = self.byId.get(c.rowId);
      if (row && row.values[c.key] !== c.value) { row.values[c.key] = c.value; self.staleNote(c.rowId, c.key); }
    });
    if (append) {
      var have = new Set(this.rows.map(function (r) { return r.id; }));
      this.rows = this.rows.concat(list.filter(function (r) { return !have.has(r.id); }));
    } else {
      this.rows = list;
    }
  },

  // Fetches `size` rows of the current search from `offset` (or, with `append`, the next ones).
  fetchWindow: function (size, append, offset) {
    var self = this;
    var seq = ++this.fetchSeq;
    var from = append ? this.offset + this.rows.length : offset || 0;
    var params = new URLSearchParams({ offset: String(from), limit: String(Math.min(this.rules.maxWindow, size)) });
    if (this.query) params.set("search", this.query);
    return fetch(API + "?" + params, { credentials: "same-origin" })
      .then(function (res) { return res.json(); })
      .then(function (json) {
        if (!json.success || seq !== self.fetchSeq) return false;
        self.window(json, append);
        return true;
      })
      .catch(function () {
        self.$("[data-note]").textContent = "Could not load rows from the server; try again.";
        return false;
      });
  },

  "$": function (sel) { return this.root.querySelector(sel); },

  hasPending: function () {
    var p = this.pending;
    return p.cells.size > 0 || p.addRows.length > 0 || p.deleteRowIds.length > 0 || p.addColumns.length > 0;
  },

  setStatus: function (text, note) {
    this.$("[data-status]").textContent = text;
    if (note !== undefined) this.$("[data-note]").textContent = note;
  },

  bind: function () {
    var self = this;
    this.root.addEventListener("click", function (e) {
      var button = /** @type {Element} */ (e.target).closest("[data-action]");
      if (!button || !self.root.contains(button)) return;
      var action = button.getAttribute("data-action");
      if (action === "add-row") self.addRow();
      else if (action === "add-column") { var form = self.$("[data-add-column-form]"); form.hidden = false; form.querySelector("input").focus(); }
      else if (action === "cancel-column") self.$("[data-add-column-form]").hidden = true;
      else if (action === "undo") self.undo();
      else if (action === "redo") self.redo();
      else if (action === "reload") self.reload();
      else if (action === "publish") self.save(true);
      else if (action === "publish-confirmed") { self.hideHold(); self.confirmNext = true; self.save(true); }
      else if (action === "publish-cancel") self.hideHold();
      else if (action === "discard") self.discard();
      else if (action === "more") self.fetchWindow(self.rules.page, true).then(function () { self.render(); });
      else if (action === "delete-row") self.deleteRow(button.getAttribute("data-row"));
      else if (action === "reapply") self.resolve(true);
      else if (action === "keep-theirs") self.resolve(false);
      else if (action === "sort") self.sortBy(button.getAttribute("data-key"));
      else if (action === "fill-down") self.fill("down");
      else if (action === "fill-right") self.fill("right");
      else if (action === "clear-range") self.clearRange();
      else if (action === "filter") self.toggleFilters();
      else if (action === "wrap") self.toggleWrap(button);
      else if (action === "jump") self.jump(button.getAttribute("data-row"), Number(button.getAttribute("data-position")), button.getAttribute("data-key"));
    });
    this.$("[data-add-column-form]").addEventListener("submit", function (e) {
      e.preventDefault();
      var input = /** @type {Element} */ (e.target).querySelector("input");
      var label = input.value.trim();
      if (!label) return;
      input.value = "";
      e.target.hidden = true;
      self.addColumn(label);
    });
    var searchTimer = 0;
    this.$("[data-search]").addEventListener("input", function (e) {
      var query = /** @type {HTMLInputElement} */ (e.target).value.trim();
      clearTimeout(searchTimer);
      searchTimer = setTimeout(function () {
        self.query = query;
        self.fetchWindow(self.rules.page, false).then(function (fresh) { if (fresh) self.render(); });
      }, 200);
    });
    var warnings = this.$("[data-warnings]");
    if (warnings) warnings.addEventListener("toggle", function () { if (warnings.open) self.loadWarnings(); });
    var wrap = this.$("[data-grid-wrap]");
    var filterTimer = 0;
    wrap.addEventListener("focusin", function (e) {
      var cell = e.target;
      if (cell.tagName !== "TEXTAREA") return;
      cell.setAttribute("data-before", cell.value);
      if (!self.extending) self.select(cell.getAttribute("data-row"), cell.getAttribute("data-key"));
    });
    wrap.addEventListener("input", function (e) {
      var cell = e.target;
      if (cell.hasAttribute("data-filter")) {
        self.filters[cell.getAttribute("data-filter")] = cell.value;
        clearTimeout(filterTimer);
        filterTimer = setTimeout(function () { self.render(); }, 150);
        return;
      }
      if (cell.tagName !== "TEXTAREA" || cell.readOnly) return;
      self.setCell(cell.getAttribute("data-row"), cell.getAttribute("data-key"), cell.value, false);
    });
    wrap.addEventListener("change", function (e) {
      var cell = e.target;
      if (cell.tagName !== "TEXTAREA" || cell.readOnly) return;
      self.commit(cell);
    });
    wrap.addEventListener("keydown", function (e) { self.key(e); });
    wrap.addEventListener("copy", function (e) { self.copy(e, false); });
    wrap.addEventListener("cut", function (e) { self.copy(e, true); });
    wrap.addEventListener("paste", function (e) { self.paste(e); });
    // Ranges by mouse: drag across cells, or Shift+click to extend from the active cell.
    wrap.addEventListener("pointerdown", function (e) {
      var handle = /** @type {Element} */ (e.target).closest("[data-resize]");
      if (handle) return self.startResize(e, handle);
      var cell = /** @type {Element} */ (e.target).closest("textarea[data-row]");
      if (!cell || e.button !== 0) return;
      if (e.shiftKey && self.sel) {
        e.preventDefault();
        self.extendTo(cell.getAttribute("data-row"), cell.getAttribute("data-key"));
        return;
      }
      self.dragging = true;
    });
    wrap.addEventListener("pointerover", function (e) {
      if (!self.dragging || !self.sel) return;
      var cell = /** @type {Element} */ (e.target).closest("textarea[data-row]");
      if (cell && (cell.getAttribute("data-row") !== self.sel.focus.rowId || cell.getAttribute("data-key") !== self.sel.focus.key)) {
        self.extendTo(cell.getAttribute("data-row"), cell.getAttribute("data-key"));
      }
    });
    document.addEventListener("pointerup", function () { self.dragging = false; });
    // The Publishing card published or discarded (htmx sends these from its answers).
    document.body.addEventListener("sheet-published", function () { self.refresh().then(function () { self.loadDrafts(); }); });
    document.body.addEventListener("sheet-discarded", function () { self.afterDiscard(null); });
    window.addEventListener("beforeunload", function (e) {
      if (self.hasPending() || self.saving) { e.preventDefault(); e.returnValue = ""; }
    });
  },

  // A finished cell edit becomes one undo step.
  commit: function (cell) {
    var before = cell.getAttribute("data-before");
    if (before !== null && before !== cell.value) {
      this.pushUndo({ type: "cell", rowId: cell.getAttribute("data-row"), key: cell.getAttribute("data-key"), before: before, after: cell.value });
      cell.setAttribute("data-before", cell.value);
    }
  },
};
