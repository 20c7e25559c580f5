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
(function () {
  "use strict";
  if (window.performance && performance.mark) performance.mark("sheet-editor:start");
  // Under the base path when the site has one (the page sends it as data-site-path).
  var API = (document.body.getAttribute("data-site-path") || "") + "/api/admin/sheet";
  var DELAY = 850;
  var FROZEN = 2;
  var WIDTH = { title: 220, notes: 320, location: 200 };
  var MIN_WIDTH = 60;
  var DRAFTS = API + "/drafts";
  var DRAFT_ROW = "New row, not published yet";

  // What a marked cell says: what visitors see there until it is published.
  function draftTitle(published) {
    return "Not published yet. Visitors see: " + (published === "" ? "(empty)" : "\u201c" + published + "\u201d");
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ---- Clipboard formats -------------------------------------------------------------------

  // Tab-separated text as spreadsheets write it: a cell holding a tab, a line break or a quote is
  // quoted, with quotes doubled. One trailing line break is not a row.
  function parseTsv(text) {
    text = text.replace(/\r\n?/g, "\n");
    if (text.slice(-1) === "\n") text = text.slice(0, -1);
    var rows = [];
    var row = [];
    var cell = "";
    var i = 0;
    var start = true;
    while (i < text.length) {
      var ch = text[i];
      if (start && ch === '"') {
        // A quoted cell runs to the quote not doubled; what follows up to the separator is kept.
        var j = i + 1;
        var quoted = "";
        while (j < text.length) {
          if (text[j] === '"') {
            if (text[j + 1] === '"') { quoted += '"'; j += 2; continue; }
            break;
          }
          quoted += text[j++];
        }
        if (j < text.length && (j + 1 === text.length || text[j + 1] === "\t" || text[j + 1] === "\n")) {
          cell = quoted;
          i = j + 1;
          start = false;
          continue;
        }
      }
      start = false;
      if (ch === "\t") { row.push(cell); cell = ""; start = true; }
      else if (ch === "\n") { row.push(cell); rows.push(row); row = []; cell = ""; start = true; }
      else cell += ch;
      i++;
    }
    row.push(cell);
    rows.push(row);
    return rows;
  }

  function tsvCell(value) {
    return /[\t\n"]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value;
  }

  // The text of an HTML table cell as a spreadsheet shows it: line breaks and paragraphs become
  // new lines, other white space one space.
  function cellText(node) {
    var out = "";
    (function walk(n) {
      for (var c = n.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) out += c.nodeValue.replace(/\s+/g, " ");
        else if (c.nodeType === 1) {
          var tag = c.tagName;
          if (tag === "BR") { out += "\n"; continue; }
          if (tag === "STYLE" || tag === "SCRIPT") continue;
          var block = tag === "P" || tag === "DIV" || tag === "LI";
          if (block && out && out.slice(-1) !== "\n") out += "\n";
          walk(c);
        }
      }
    })(node);
    return out.split("\n").map(function (l) { return l.trim(); }).join("\n").replace(/^\n+|\n+$/g, "");
  }

  // The first table of an HTML clipboard (Google Sheets, Excel, LibreOffice); null when there is none.
  // DOMParser builds an inert document: nothing in it runs or loads.
  function parseHtmlTable(html) {
    // Styles are dropped first: the page's CSP refuses inline styles even in an inert document.
    html = html.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "");
    var doc = new DOMParser().parseFromString(html, "text/html");
    var table = doc.querySelector("table");
    if (!table) return null;
    var rows = [];
    var spans = [];
    Array.prototype.forEach.call(table.rows, function (tr, r) {
      var row = [];
      var c = 0;
      Array.prototype.forEach.call(tr.cells, function (td) {
        while (spans[c] && spans[c].left > 0 && spans[c].from < r) { row[c] = ""; spans[c].left--; c++; }
        var span = Math.max(1, Number(td.getAttribute("colspan")) || 1);
        var down = Math.max(1, Number(td.getAttribute("rowspan")) || 1);
        for (var k = 0; k < span; k++) {
          row[c] = k === 0 ? cellText(td) : "";
          if (down > 1) spans[c] = { left: down - 1, from: r };
          c++;
        }
      });
      while (spans[c] && spans[c].left > 0 && spans[c].from < r) { row[c] = ""; spans[c].left--; c++; }
      rows.push(row);
    });
    return rows.length ? rows : null;
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }

  // ---- The editor ---------------------------------------------------------------------------

  function Editor(root) {
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

  // Takes a window of rows from the server. Each row remembers the revision it was read at (the
  // base of its edits); rows already known keep their object, with pending edits put back on top.
  Editor.prototype.window = function (sheet, append) {
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
  };

  // Fetches `size` rows of the current search from `offset` (or, with `append`, the next ones).
  Editor.prototype.fetchWindow = function (size, append, offset) {
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
  };

  Editor.prototype.$ = function (sel) { return this.root.querySelector(sel); };

  Editor.prototype.hasPending = function () {
    var p = this.pending;
    return p.cells.size > 0 || p.addRows.length > 0 || p.deleteRowIds.length > 0 || p.addColumns.length > 0;
  };

  Editor.prototype.setStatus = function (text, note) {
    this.$("[data-status]").textContent = text;
    if (note !== undefined) this.$("[data-note]").textContent = note;
  };

  Editor.prototype.bind = function () {
    var self = this;
    this.root.addEventListener("click", function (e) {
      var button = e.target.closest("[data-action]");
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
      var input = e.target.querySelector("input");
      var label = input.value.trim();
      if (!label) return;
      input.value = "";
      e.target.hidden = true;
      self.addColumn(label);
    });
    var searchTimer = 0;
    this.$("[data-search]").addEventListener("input", function (e) {
      var query = e.target.value.trim();
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
      var handle = e.target.closest("[data-resize]");
      if (handle) return self.startResize(e, handle);
      var cell = e.target.closest("textarea[data-row]");
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
      var cell = e.target.closest("textarea[data-row]");
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
  };

  // A finished cell edit becomes one undo step.
  Editor.prototype.commit = function (cell) {
    var before = cell.getAttribute("data-before");
    if (before !== null && before !== cell.value) {
      this.pushUndo({ type: "cell", rowId: cell.getAttribute("data-row"), key: cell.getAttribute("data-key"), before: before, after: cell.value });
      cell.setAttribute("data-before", cell.value);
    }
  };

  // ---- Selection ----------------------------------------------------------------------------

  Editor.prototype.select = function (rowId, key) {
    this.sel = { anchor: { rowId: rowId, key: key }, focus: { rowId: rowId, key: key } };
    this.paint();
  };

  Editor.prototype.extendTo = function (rowId, key) {
    if (!this.sel) return this.select(rowId, key);
    this.sel.focus = { rowId: rowId, key: key };
    this.paint();
  };

  Editor.prototype.indexOf = function (ref) {
    var r = -1;
    for (var i = 0; i < this.shown.length; i++) if (this.shown[i].id === ref.rowId) { r = i; break; }
    var c = -1;
    for (var j = 0; j < this.columns.length; j++) if (this.columns[j].key === ref.key) { c = j; break; }
    return r === -1 || c === -1 ? null : { r: r, c: c };
  };

  // The selected rectangle as indexes into the shown rows and the columns; null when none.
  Editor.prototype.range = function () {
    if (!this.sel) return null;
    var a = this.indexOf(this.sel.anchor);
    var f = this.indexOf(this.sel.focus);
    if (!a) return null;
    if (!f) f = a;
    return { r0: Math.min(a.r, f.r), r1: Math.max(a.r, f.r), c0: Math.min(a.c, f.c), c1: Math.max(a.c, f.c), anchor: a };
  };

  Editor.prototype.isRange = function () {
    var g = this.range();
    return !!g && (g.r0 !== g.r1 || g.c0 !== g.c1);
  };

  Editor.prototype.paint = function () {
    var body = this.$("[data-grid-wrap] tbody");
    if (!body) return;
    body.querySelectorAll(".in-range").forEach(function (td) { td.classList.remove("in-range"); td.removeAttribute("aria-selected"); });
    var g = this.range();
    var multi = this.isRange();
    this.$("[data-range]").textContent = multi ? (g.r1 - g.r0 + 1) + " \u00d7 " + (g.c1 - g.c0 + 1) + " cells selected" : "";
    if (!multi) return;
    for (var r = g.r0; r <= g.r1; r++) {
      var tr = body.rows[r];
      if (!tr) continue;
      for (var c = g.c0; c <= g.c1; c++) {
        var td = tr.cells[c + 1];
        if (td) { td.classList.add("in-range"); td.setAttribute("aria-selected", "true"); }
      }
    }
  };

  // ---- Keyboard -----------------------------------------------------------------------------

  // Spreadsheet keys: arrows move (left/right at the text edges, up/down at the first/last line),
  // Shift with them extends the range, Enter moves down (Alt+Enter writes a line break), Tab is
  // native, Escape puts back the value the cell had when it was entered; Ctrl/Cmd+D and +R fill
  // down and right, Delete clears a range, Ctrl/Cmd+Z and +Y (or Shift+Z) undo and redo.
  Editor.prototype.key = function (e) {
    var cell = e.target;
    if (cell.tagName !== "TEXTAREA") return;
    var mod = e.ctrlKey || e.metaKey;
    var k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (mod && !e.altKey && (k === "z" || k === "y")) {
      e.preventDefault();
      this.commit(cell);
      if (k === "y" || e.shiftKey) this.redo(); else this.undo();
      return;
    }
    if (mod && !e.altKey && (k === "d" || k === "r")) {
      e.preventDefault();
      this.commit(cell);
      this.fill(k === "d" ? "down" : "right");
      return;
    }
    if ((e.key === "Delete" || e.key === "Backspace") && this.isRange()) {
      e.preventDefault();
      this.clearRange();
      return;
    }
    if (e.key === "Escape") {
      var before = cell.getAttribute("data-before");
      if (before !== null && !cell.readOnly && cell.value !== before) {
        cell.value = before;
        this.setCell(cell.getAttribute("data-row"), cell.getAttribute("data-key"), before, false);
      }
      e.preventDefault();
      return;
    }
    if (e.key === "Enter" && e.altKey) {
      // A line break inside the cell.
      e.preventDefault();
      if (cell.readOnly) return;
      cell.setRangeText("\n", cell.selectionStart, cell.selectionEnd, "end");
      cell.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    var atStart = cell.selectionStart === 0 && cell.selectionEnd === 0;
    var atEnd = cell.selectionStart === cell.value.length;
    var firstLine = cell.value.lastIndexOf("\n", cell.selectionStart - 1) === -1;
    var lastLine = cell.value.indexOf("\n", cell.selectionEnd) === -1;
    var g = this.range();
    if (!g) return;
    var focus = this.indexOf(this.sel.focus) || g.anchor;
    var dr = 0;
    var dc = 0;
    if (e.key === "ArrowDown" && (lastLine || e.shiftKey)) dr = 1;
    else if (e.key === "ArrowUp" && (firstLine || e.shiftKey)) dr = -1;
    else if (e.key === "Enter") dr = e.shiftKey ? -1 : 1;
    else if (e.key === "ArrowLeft" && (atStart || cell.readOnly)) dc = -1;
    else if (e.key === "ArrowRight" && (atEnd || cell.readOnly)) dc = 1;
    else return;
    if (e.key !== "Enter" && e.shiftKey) {
      // Extend the range from the anchor.
      var r = Math.max(0, Math.min(this.shown.length - 1, focus.r + dr));
      var c = Math.max(0, Math.min(this.columns.length - 1, focus.c + dc));
      e.preventDefault();
      this.extendTo(this.shown[r].id, this.columns[c].key);
      return;
    }
    var at = g.anchor;
    var next = this.cellAt(at.r + dr, at.c + dc);
    if (e.key === "Enter" && !cell.readOnly) this.commit(cell);
    if (next) {
      e.preventDefault();
      next.focus();
      next.select();
    }
  };

  Editor.prototype.cellAt = function (r, c) {
    var body = this.$("[data-grid-wrap] tbody");
    var tr = body && body.rows[r];
    var td = tr && tr.cells[c + 1];
    return td ? td.querySelector("textarea") : null;
  };

  // ---- Batch edits: paste, fill, clear ------------------------------------------------------

  // Writes many cells as one undo step (new rows first); `ops` are {rowId, key, value}.
  Editor.prototype.batch = function (cells, newRows) {
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
  };

  Editor.prototype.writable = function (c) {
    return c >= 0 && c < this.columns.length && this.columns[c].key !== "eventKey";
  };

  Editor.prototype.fill = function (direction) {
    var g = this.range();
    if (!g) return;
    var cells = [];
    if (direction === "down") {
      // One row selected: copy the row above into it; else the range's first row into the rest.
      var from = g.r0 === g.r1 ? g.r0 - 1 : g.r0;
      if (from < 0) return;
      for (var c = g.c0; c <= g.c1; c++) {
        if (!this.writable(c)) continue;
        var key = this.columns[c].key;
        var value = this.shown[from].values[key] || "";
        for (var r = from + 1; r <= g.r1; r++) cells.push({ rowId: this.shown[r].id, key: key, value: value });
      }
    } else {
      var left = g.c0 === g.c1 ? g.c0 - 1 : g.c0;
      if (left < 0) return;
      for (var r2 = g.r0; r2 <= g.r1; r2++) {
        var row = this.shown[r2];
        var v = row.values[this.columns[left].key] || "";
        for (var c2 = left + 1; c2 <= g.c1; c2++) if (this.writable(c2)) cells.push({ rowId: row.id, key: this.columns[c2].key, value: v });
      }
    }
    this.batch(cells, []);
    this.render();
  };

  Editor.prototype.clearRange = function () {
    var g = this.range();
    if (!g) return;
    var cells = [];
    for (var r = g.r0; r <= g.r1; r++) for (var c = g.c0; c <= g.c1; c++) if (this.writable(c)) cells.push({ rowId: this.shown[r].id, key: this.columns[c].key, value: "" });
    this.batch(cells, []);
    this.render();
  };

  // Copies the range (or the active cell when no text is selected in it) as TSV and as an HTML table.
  Editor.prototype.copy = function (e, cut) {
    var cell = e.target;
    if (cell.tagName !== "TEXTAREA" || !e.clipboardData) return;
    var g = this.range();
    if (!g) return;
    if (!this.isRange() && cell.selectionStart !== cell.selectionEnd) return;
    var lines = [];
    var html = "<table>";
    for (var r = g.r0; r <= g.r1; r++) {
      var values = [];
      html += "<tr>";
      for (var c = g.c0; c <= g.c1; c++) {
        var v = this.shown[r].values[this.columns[c].key] || "";
        values.push(tsvCell(v));
        html += "<td>" + escapeHtml(v).replace(/\n/g, "<br>") + "</td>";
      }
      html += "</tr>";
      lines.push(values.join("\t"));
    }
    html += "</table>";
    e.preventDefault();
    e.clipboardData.setData("text/plain", lines.join("\n"));
    e.clipboardData.setData("text/html", html);
    if (cut) this.clearRange();
  };

  // Pastes a block at the top left of the range: an HTML table when the clipboard has one, else
  // tab-separated text. One value over a range fills it. Plain text for one cell is the browser's
  // own paste. The block is written by row id and column key to the rows the person sees from the
  // range's top row down (targetRows), taken when the paste happens: rows drawn or fetched while
  // it runs never move it onto other rows.
  Editor.prototype.paste = function (e) {
    var cell = e.target;
    if (cell.tagName !== "TEXTAREA" || !e.clipboardData) return;
    var html = e.clipboardData.getData("text/html");
    var text = e.clipboardData.getData("text/plain");
    var block = html ? parseHtmlTable(html) : null;
    if (!block) {
      var one = !/[\t\n]/.test(text.replace(/\r?\n$/, ""));
      if (one && !this.isRange()) return;
      block = one ? [[text.replace(/\r?\n$/, "")]] : parseTsv(text);
    }
    e.preventDefault();
    var g = this.range();
    if (!g) return;
    var self = this;
    var fillRange = block.length === 1 && block[0].length === 1 ? g : null;
    var height = fillRange ? g.r1 - g.r0 + 1 : block.length;
    var width = fillRange ? g.c1 - g.c0 + 1 : Math.max.apply(null, block.map(function (l) { return l.length; }));
    var keys = this.columns.slice(g.c0, g.c0 + width).map(function (c) { return c.key; });
    this.targetRows(g.r0, height).then(function (target) {
      var rows = block;
      if (fillRange) for (rows = []; rows.length < height; ) rows.push(keys.map(function () { return block[0][0]; }));
      self.pasteBlock(rows, target, keys, height);
    });
  };

  // The ids of the rows a block of `height` rows written from shown row `r0` lands in, and how many
  // new rows it needs past them: the shown rows from `r0` down; when the block runs past the last
  // shown row and that row is the last row of the stored window as the sheet orders it (no row
  // added here drawn after it, no sort or filter on), the next stored rows, fetched; else new rows.
  Editor.prototype.targetRows = function (r0, height) {
    var self = this;
    var ids = this.shown.slice(r0, r0 + height).map(function (r) { return r.id; });
    var missing = height - ids.length;
    var last = this.shown[this.shown.length - 1];
    var tail = this.rows[this.rows.length - 1];
    var more = this.matching - this.offset - this.rows.length;
    var next = missing > 0 && more > 0 && last && tail && last.id === tail.id && !this.sort && !this.activeFilters();
    if (!next) return Promise.resolve({ ids: ids, missing: Math.max(0, missing) });
    return this.fetchWindow(Math.min(missing, more), true).then(function () {
      self.render();
      var deleted = new Set(self.pending.deleteRowIds);
      var at = self.rows.indexOf(tail);
      var fetched = at === -1 ? [] : self.rows.slice(at + 1).filter(function (r) { return !deleted.has(r.id); }).slice(0, missing);
      return { ids: ids.concat(fetched.map(function (r) { return r.id; })), missing: missing - fetched.length };
    });
  };

  // Writes `block` (rows of values for the column `keys`) into the `target` rows by id, adding the
  // new rows it needs at the end, as one undo step; then selects what was written.
  Editor.prototype.pasteBlock = function (block, target, keys, height) {
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
    var cells = [];
    for (var i = 0; i < height; i++) {
      var line = block[i] || [];
      for (var j = 0; j < keys.length && j < line.length; j++) {
        if (keys[j] === "eventKey") continue;
        cells.push({ rowId: ids[i], key: keys[j], value: line[j].trim() });
      }
    }
    this.batch(cells, newRows);
    this.render();
    if (ids.length && keys.length) {
      this.sel = { anchor: { rowId: ids[0], key: keys[0] }, focus: { rowId: ids[height - 1], key: keys[keys.length - 1] } };
      this.paint();
    }
  };

  // ---- Sort, filter, wrap, resize -----------------------------------------------------------

  // Sorting cycles ascending, descending, off; it orders the shown rows only.
  Editor.prototype.sortBy = function (key) {
    if (!this.sort || this.sort.key !== key) this.sort = { key: key, dir: 1 };
    else if (this.sort.dir === 1) this.sort.dir = -1;
    else this.sort = null;
    this.render();
  };

  Editor.prototype.activeFilters = function () {
    var f = this.filters;
    return Object.keys(f).some(function (k) { return f[k].trim() !== ""; });
  };

  Editor.prototype.toggleFilters = function () {
    this.filtering = !this.filtering;
    if (!this.filtering) this.filters = {};
    this.$("[data-action=filter]").setAttribute("aria-pressed", String(this.filtering));
    this.render();
    var first = this.$("[data-filter]");
    if (first) first.focus();
  };

  Editor.prototype.toggleWrap = function (button) {
    var on = !this.root.classList.contains("sheet-wrap-text");
    this.root.classList.toggle("sheet-wrap-text", on);
    button.setAttribute("aria-pressed", String(on));
  };

  Editor.prototype.widthOf = function (key) {
    return this.widths[key] || WIDTH[key] || 140;
  };

  Editor.prototype.startResize = function (e, handle) {
    e.preventDefault();
    var self = this;
    var key = handle.getAttribute("data-resize");
    var col = this.$('[data-grid-wrap] col[data-key="' + key + '"]');
    var startX = e.clientX;
    var start = this.widthOf(key);
    handle.setPointerCapture(e.pointerId);
    var move = function (ev) {
      self.widths[key] = Math.max(MIN_WIDTH, Math.round(start + ev.clientX - startX));
      col.style.width = self.widths[key] + "px";
    };
    var up = function () {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  };

  // ---- Drawing ------------------------------------------------------------------------------

  // A row added in this session matches the search when one of its cells contains it.
  Editor.prototype.matches = function (row) {
    var q = this.query.toLowerCase();
    if (!q) return true;
    for (var k in row.values) if (String(row.values[k]).toLowerCase().indexOf(q) !== -1) return true;
    return false;
  };

  // The window's rows, then the rows added in this session that it does not hold, less deleted
  // ones; then the column filters and the sort, which never change the stored order.
  Editor.prototype.visibleRows = function () {
    var deleted = new Set(this.pending.deleteRowIds);
    var inWindow = new Set(this.rows.map(function (r) { return r.id; }));
    var self = this;
    var extra = this.added.filter(function (r) { return !inWindow.has(r.id) && self.byId.has(r.id) && self.matches(r); });
    var list = this.rows.concat(extra).filter(function (r) { return !deleted.has(r.id); });
    var filters = this.filters;
    Object.keys(filters).forEach(function (key) {
      var q = filters[key].trim().toLowerCase();
      if (q) list = list.filter(function (r) { return String(r.values[key] || "").toLowerCase().indexOf(q) !== -1; });
    });
    if (this.sort) {
      var key = this.sort.key;
      var dir = this.sort.dir;
      var order = new Map(list.map(function (r, i) { return [r.id, i]; }));
      list = list.slice().sort(function (a, b) {
        var x = a.values[key] || "";
        var y = b.values[key] || "";
        // Empty cells last either way; ties keep the sheet's order.
        if (!x !== !y) return x ? -1 : 1;
        return dir * x.localeCompare(y, undefined, { numeric: true, sensitivity: "base" }) || order.get(a.id) - order.get(b.id);
      });
    }
    return list;
  };

  // The reading or warning under a cell, from the server's notes.
  Editor.prototype.noteOf = function (rowId, key) {
    var n = this.notes[rowId];
    return n && n[key];
  };

  Editor.prototype.staleNote = function (rowId, key) {
    var n = this.notes[rowId];
    if (n && n[key]) n[key].stale = true;
  };

  // The published value of a cell that differs from it, or null when the cell is as published (a
  // row visitors do not have yet is marked as a whole).
  Editor.prototype.draftOf = function (rowId, key) {
    var mark = this.drafts[rowId];
    if (!mark || !mark.cells || !Object.prototype.hasOwnProperty.call(mark.cells, key)) return null;
    return mark.cells[key];
  };

  Editor.prototype.isAdded = function (rowId) {
    var mark = this.drafts[rowId];
    return !!(mark && mark.added);
  };

  // Marks a drawn row and its cells again after a save brought their marks.
  Editor.prototype.drawDrafts = function (rowId) {
    var self = this;
    var tr = this.$('[data-grid-wrap] tr[data-row="' + rowId + '"]');
    if (!tr) return;
    var added = this.isAdded(rowId);
    tr.classList.toggle("row-draft", added);
    var head = tr.querySelector(".row-head");
    var hidden = head.querySelector(".visually-hidden");
    if (added) head.title = DRAFT_ROW;
    else head.removeAttribute("title");
    if (added && !hidden) head.querySelector(".row-number").appendChild(el("span", { class: "visually-hidden" }, " " + DRAFT_ROW));
    if (!added && hidden) hidden.remove();
    this.columns.forEach(function (c) {
      var cell = self.cellInput(rowId, c.key);
      if (!cell) return;
      var td = cell.parentElement;
      var draft = self.draftOf(rowId, c.key);
      td.classList.toggle("cell-draft", draft !== null);
      if (draft === null) { td.removeAttribute("title"); cell.removeAttribute("aria-description"); }
      else { td.title = draftTitle(draft); cell.setAttribute("aria-description", draftTitle(draft)); }
    });
  };

  Editor.prototype.drawNote = function (td, rowId, key) {
    var old = td.querySelector(".cell-note");
    if (old) old.remove();
    var cell = td.querySelector("textarea");
    var note = this.noteOf(rowId, key);
    td.classList.toggle("cell-warn", !!(note && note.warning && !note.stale));
    if (!note || (!note.reading && !note.warning)) {
      cell.removeAttribute("aria-describedby");
      cell.removeAttribute("aria-invalid");
      return;
    }
    var id = "note-" + rowId + "-" + key;
    var span = el("span", { class: "cell-note" + (note.warning ? " cell-note-warn" : "") + (note.stale ? " cell-note-stale" : ""), id: id }, note.warning ? "\u26a0 " + note.warning : note.reading);
    td.appendChild(span);
    cell.setAttribute("aria-describedby", id);
    if (note.warning && !note.stale) cell.setAttribute("aria-invalid", "true");
    else cell.removeAttribute("aria-invalid");
  };

  Editor.prototype.render = function () {
    var self = this;
    var wrap = this.$("[data-grid-wrap]");
    var active = document.activeElement;
    var focus = active && wrap.contains(active) ? { row: active.getAttribute("data-row"), key: active.getAttribute("data-key"), filter: active.getAttribute("data-filter"), at: active.selectionStart } : null;
    var shown = (this.shown = this.visibleRows());
    var table = el("table", { class: "sheet-grid", "aria-multiselectable": "true" });
    var colgroup = el("colgroup");
    colgroup.appendChild(el("col", { class: "col-head" }));
    var total = 56;
    this.columns.forEach(function (c) {
      var w = self.widthOf(c.key);
      total += w;
      var col = el("col", { "data-key": c.key });
      col.style.width = w + "px";
      colgroup.appendChild(col);
    });
    table.style.width = total + "px";
    table.appendChild(colgroup);
    var head = el("tr");
    head.appendChild(el("th", { class: "frozen frozen-0", scope: "col" }, "#"));
    this.columns.forEach(function (c, i) {
      var th = el("th", { scope: "col", class: i < FROZEN - 1 ? "frozen frozen-1" : "" });
      var sorted = self.sort && self.sort.key === c.key ? self.sort.dir : 0;
      th.setAttribute("aria-sort", sorted === 1 ? "ascending" : sorted === -1 ? "descending" : "none");
      var button = el("button", { type: "button", class: "sheet-sort", "data-action": "sort", "data-key": c.key, title: "Sort the shown rows by " + c.label }, c.label);
      if (sorted) button.appendChild(el("span", { "aria-hidden": "true" }, sorted === 1 ? " \u25b2" : " \u25bc"));
      th.appendChild(button);
      if (c.key === "eventKey") th.title = "Read-only: assigned once, when the row is first saved";
      th.appendChild(el("span", { class: "col-resize", "data-resize": c.key, "aria-hidden": "true" }));
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    if (this.filtering) {
      var filterRow = el("tr", { class: "sheet-filters" });
      filterRow.appendChild(el("th", { class: "frozen frozen-0", scope: "row" }, "\u2315"));
      this.columns.forEach(function (c, i) {
        var th = el("th", { class: i < FROZEN - 1 ? "frozen frozen-1" : "" });
        var input = el("input", { type: "search", "data-filter": c.key, "aria-label": "Filter " + c.label, placeholder: "Filter" });
        input.value = self.filters[c.key] || "";
        th.appendChild(input);
        filterRow.appendChild(th);
      });
      thead.appendChild(filterRow);
    }
    table.appendChild(thead);
    var body = el("tbody");
    // Rows added here and not in the window sit at the end of the sheet: the saved ones within
    // the stored total, the unsaved ones after it.
    var pendingAdds = this.pending.addRows;
    var extra = this.total - shown.filter(function (r) { return !r.position && pendingAdds.indexOf(r) === -1; }).length;
    var numbers = new Map();
    this.rows.concat(this.added).forEach(function (row) { if (!numbers.has(row.id)) numbers.set(row.id, row.position || ++extra); });
    // One HTML string for the rows: the parser builds a thousand cells far faster than DOM calls.
    var html = [];
    shown.forEach(function (row) {
      var index = numbers.get(row.id) || ++extra;
      var id = escapeHtml(row.id);
      var added = self.isAdded(row.id);
      html.push('<tr data-row="', id, '"', added ? ' class="row-draft"' : "", '><th class="frozen frozen-0 row-head" scope="row"', added ? ' title="' + DRAFT_ROW + '"' : "", '><div class="row-head-inner"><span class="row-number">', String(index),
        added ? '<span class="visually-hidden"> ' + DRAFT_ROW + "</span>" : "",
        '</span><button type="button" class="row-delete" data-action="delete-row" data-row="', id, '" aria-label="', escapeHtml("Delete row " + index + " " + (row.values.title || "")), '">\u00d7</button></div></th>');
      self.columns.forEach(function (c, i) {
        var note = self.noteOf(row.id, c.key);
        var shownNote = note && (note.reading || note.warning);
        var warn = !!(note && note.warning && !note.stale);
        var noteId = "note-" + row.id + "-" + c.key;
        var draft = self.draftOf(row.id, c.key);
        var cls = (i < FROZEN - 1 ? "frozen frozen-1" : "") + (warn ? " cell-warn" : "") + (draft !== null ? " cell-draft" : "");
        html.push('<td class="', cls, '"', draft !== null ? ' title="' + escapeHtml(draftTitle(draft)) + '"' : "", '><textarea rows="1" spellcheck="false" data-row="', id, '" data-key="', escapeHtml(c.key), '" aria-label="', escapeHtml(c.label + ", row " + index), '"',
          draft !== null ? ' aria-description="' + escapeHtml(draftTitle(draft)) + '"' : "",
          c.key === "eventKey" ? ' readonly class="readonly"' : "",
          shownNote ? ' aria-describedby="' + escapeHtml(noteId) + '"' : "",
          warn ? ' aria-invalid="true"' : "",
          // The parser drops one line break right after <textarea>: this one, so a value's own stays.
          ">\n", escapeHtml(row.values[c.key] || ""), "</textarea>");
        if (shownNote) {
          html.push('<span class="cell-note', note.warning ? " cell-note-warn" : "", note.stale ? " cell-note-stale" : "", '" id="', escapeHtml(noteId), '">', escapeHtml(note.warning ? "\u26a0 " + note.warning : note.reading), "</span>");
        }
        html.push("</td>");
      });
      html.push("</tr>");
    });
    body.innerHTML = html.join("");
    table.appendChild(body);
    wrap.replaceChildren(table);
    // Counts: the server's, less rows deleted here, plus rows added here and not saved yet.
    var p = this.pending;
    var deletedHere = this.rows.filter(function (r) { return p.deleteRowIds.indexOf(r.id) !== -1; }).length;
    var addedHere = p.addRows.filter(function (r) { return self.matches(r); }).length;
    var all = this.rows.length + this.added.filter(function (r) { return self.rows.indexOf(r) === -1 && self.byId.has(r.id) && p.deleteRowIds.indexOf(r.id) === -1; }).length - deletedHere;
    var of = Math.max(all, this.matching - deletedHere + addedHere);
    var sum = this.total - p.deleteRowIds.length + p.addRows.length;
    var narrowed = shown.length < all ? " (" + (all - shown.length) + " hidden by the column filters)" : "";
    var from = this.offset > 0 ? " from row " + (this.offset + 1) : "";
    this.$("[data-action=more]").hidden = this.offset + this.rows.length >= this.matching;
    this.$("[data-count]").textContent = "Showing " + all + " of " + of + " rows" + from + (this.query ? " matching the search (" + sum + " in all)" : "") + "." + narrowed;
    this.$("[data-action=undo]").disabled = this.undoStack.length === 0;
    this.$("[data-action=redo]").disabled = this.redoStack.length === 0;
    if (focus && focus.filter) {
      var f = wrap.querySelector('input[data-filter="' + focus.filter + '"]');
      if (f) { f.focus(); if (focus.at !== null) f.setSelectionRange(focus.at, focus.at); }
    } else if (focus && focus.row) {
      var again = this.cellInput(focus.row, focus.key);
      if (again) { this.extending = true; again.focus(); this.extending = false; }
    }
    this.paint();
  };

  Editor.prototype.cellInput = function (rowId, key) {
    return this.$('[data-grid-wrap] textarea[data-row="' + rowId + '"][data-key="' + key + '"]');
  };

  // Records one cell value: in memory, in the pending set, and (when asked) in the grid.
  Editor.prototype.setCell = function (rowId, key, value, redraw) {
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
  };

  // The revision a stored cell was last seen at: when its row was read, or when this admin saved it.
  Editor.prototype.baseOf = function (row, key) {
    if (row.seen === undefined) return undefined;
    return Math.max(row.seen, (row.cellSeen && row.cellSeen[key]) || 0);
  };

  Editor.prototype.pushUndo = function (op) {
    this.undoStack.push(op);
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.redoStack = [];
    this.$("[data-action=undo]").disabled = false;
    this.$("[data-action=redo]").disabled = true;
  };

  Editor.prototype.apply = function (op, reverse) {
    var self = this;
    if (op.type === "cell") this.setCell(op.rowId, op.key, reverse ? op.before : op.after, true);
    else if (op.type === "add-row") { if (reverse) this.removeRow(op.row.id); else this.insertRow(op.row); }
    else if (op.type === "delete-row") { if (reverse) this.insertRow(op.row); else this.removeRow(op.row.id); }
    else if (op.type === "batch") (reverse ? op.steps.slice().reverse() : op.steps).forEach(function (step) { self.apply(step, reverse); });
  };

  Editor.prototype.undo = function () {
    var op = this.undoStack.pop();
    if (!op) return;
    this.apply(op, true);
    this.redoStack.push(op);
    this.render();
  };

  Editor.prototype.redo = function () {
    var op = this.redoStack.pop();
    if (!op) return;
    this.apply(op, false);
    this.undoStack.push(op);
    this.render();
  };

  // A row (re)inserted: a deleted stored row is simply kept; a new row is sent with all its cells.
  Editor.prototype.insertRow = function (row) {
    var p = this.pending;
    var wasDeleted = p.deleteRowIds.indexOf(row.id);
    if (wasDeleted !== -1) p.deleteRowIds.splice(wasDeleted, 1);
    else {
      p.addRows.push(row);
      if (!this.byId.has(row.id)) this.byId.set(row.id, row);
      if (this.added.indexOf(row) === -1) this.added.push(row);
    }
    this.changed();
  };

  Editor.prototype.removeRow = function (id) {
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
  };

  // A new row goes at the end of the sheet; the grid shows it under the current page.
  Editor.prototype.addRow = function () {
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
  };

  Editor.prototype.deleteRow = function (id) {
    var row = this.byId.get(id);
    if (!row) return;
    if (!window.confirm("Delete the row \u201c" + (row.values.title || "(no title)") + "\u201d?")) return;
    this.removeRow(id);
    this.pushUndo({ type: "delete-row", row: row });
    this.render();
  };

  Editor.prototype.addColumn = function (label) {
    var slug = label.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, this.rules.customKeySlug) || "column";
    var key = "custom_" + slug + "_" + uuid().slice(0, 6);
    var column = { key: key, label: label, isCore: false, isRequired: false };
    this.columns.push(column);
    this.byId.forEach(function (r) { r.values[key] = ""; });
    this.pending.addColumns.push({ key: key, label: label });
    this.changed();
    this.render();
  };

  // ---- Warnings panel -----------------------------------------------------------------------

  // Every warning of the whole sheet, from the server, each with a button that shows its cell.
  Editor.prototype.loadWarnings = function () {
    var self = this;
    var box = this.$("[data-warnings]");
    if (!box) return Promise.resolve();
    return fetch(API + "/warnings", { credentials: "same-origin" })
      .then(function (res) { return res.json(); })
      .then(function (json) {
        if (!json.success) return;
        box.querySelector("[data-warning-count]").textContent = String(json.warnings.length);
        var list = el("ul", { class: "sheet-warning-list" });
        json.warnings.slice(0, 500).forEach(function (w) {
          var li = el("li");
          li.appendChild(el("button", { type: "button", class: "link-button", "data-action": "jump", "data-row": w.rowId, "data-position": String(w.position), "data-key": w.key }, "Row " + w.position + " \u00b7 " + self.label(w.key)));
          li.appendChild(document.createTextNode(": " + w.message));
          list.appendChild(li);
        });
        if (!json.warnings.length) list.appendChild(el("li", {}, "No warnings."));
        box.querySelector("[data-warning-list]").replaceChildren(list);
      })
      .catch(function () {});
  };

  // Shows a cell: in place when its row is drawn, else the page of the sheet that holds it.
  Editor.prototype.jump = function (rowId, position, key) {
    var self = this;
    var go = function () {
      var cell = self.cellInput(rowId, key);
      if (!cell) return;
      cell.scrollIntoView({ block: "center", inline: "center" });
      cell.focus();
    };
    if (this.cellInput(rowId, key)) return go();
    this.query = "";
    this.filters = {};
    this.sort = null;
    this.$("[data-search]").value = "";
    this.fetchWindow(this.rules.page, false, Math.max(0, position - 1)).then(function () { self.render(); go(); });
  };

  Editor.prototype.changed = function () {
    var now = Date.now();
    if (!this.firstEditAt) this.firstEditAt = now;
    this.setStatus("Unsaved changes");
    clearTimeout(this.timer);
    // 850 ms after the last edit, and never more than 850 ms after the first unsaved one.
    var wait = Math.max(0, Math.min(DELAY, this.firstEditAt + DELAY - now));
    var self = this;
    this.timer = setTimeout(function () { self.save(false); }, wait);
  };

  Editor.prototype.takePending = function () {
    var p = this.pending;
    var self = this;
    var base = this.latest;
    var added = new Set(p.addRows.map(function (r) { return r.id; }));
    // Cells of a row this write deletes (an undone paste that added it) go with the row: the
    // server refuses a write naming a row it also deletes.
    var deleted = new Set(p.deleteRowIds);
    var cells = [];
    p.cells.forEach(function (c) {
      if (added.has(c.rowId) || deleted.has(c.rowId)) return;
      cells.push(c);
      if (c.baseRevision !== undefined) base = Math.min(base, c.baseRevision);
    });
    p.deleteRowIds.forEach(function (id) { var row = self.byId.get(id); if (row && row.seen !== undefined) base = Math.min(base, row.seen); });
    var body = { baseRevision: base };
    if (p.addColumns.length) body.addColumns = p.addColumns;
    if (p.addRows.length) body.addRows = p.addRows.map(function (r) { return { id: r.id, values: Object.assign({}, r.values) }; });
    if (cells.length) body.cells = cells;
    if (p.deleteRowIds.length) body.deleteRowIds = p.deleteRowIds.slice();
    this.pending = { cells: new Map(), addRows: [], deleteRowIds: [], addColumns: [] };
    this.firstEditAt = 0;
    return body;
  };

  // Puts a failed write's edits back under any made since, so nothing is lost.
  Editor.prototype.restorePending = function (body) {
    var p = this.pending;
    var later = p.cells;
    p.cells = new Map();
    (body.cells || []).forEach(function (c) { p.cells.set(c.rowId + "\u0000" + c.key, c); });
    later.forEach(function (v, k) { var had = p.cells.get(k); if (had) v.baseRevision = had.baseRevision; p.cells.set(k, v); });
    p.addRows = (body.addRows || []).map(function (r) { return this.byId.get(r.id) || r; }, this).concat(p.addRows);
    p.deleteRowIds = (body.deleteRowIds || []).concat(p.deleteRowIds);
    p.addColumns = (body.addColumns || []).concat(p.addColumns);
  };

  Editor.prototype.save = function (publish) {
    var self = this;
    clearTimeout(this.timer);
    if (this.discarding) return Promise.resolve();
    if (this.conflict) { this.setStatus("Unsaved changes", "Resolve the conflict first."); return Promise.resolve(); }
    if (this.saving) { this.again = this.again || publish || "autosave"; return Promise.resolve(); }
    if (!publish && !this.hasPending()) return Promise.resolve();
    var body = this.takePending();
    if (publish) body.publish = true;
    // The second confirmation of a publish that was held for renames or removals, for this publish only.
    if (publish && this.confirmNext) body.confirm = true;
    this.confirmNext = false;
    this.saving = true;
    this.setStatus("Saving\u2026", publish ? "Saving and revalidating the homepage\u2026" : undefined);
    return (this.inflight = fetch(API, { method: "PATCH", headers: { "content-type": "application/json" }, credentials: "same-origin", body: JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return { success: false, error: "Unexpected answer (" + res.status + ")" }; }).then(function (json) { return { status: res.status, json: json }; });
      })
      .then(function (r) {
        self.saving = false;
        if (r.status === 200 && r.json.success) return self.saved(r.json, publish, body);
        self.restorePending(body);
        if (r.status === 409 && r.json.needsConfirmation) return self.showHold(r.json);
        if (r.status === 409) return self.showConflict(r.json, body);
        var message = r.json.error || "Save failed";
        if (r.json.report && r.json.report.blocking) message += ": " + r.json.report.blocking.map(function (b) { return b.message; }).join("; ");
        else if (r.json.issues) message += ": " + r.json.issues.map(function (i) { return i.field + " " + i.message; }).join("; ");
        self.setStatus("Unsaved changes", message);
      })
      .catch(function () {
        self.saving = false;
        self.restorePending(body);
        self.setStatus("Unsaved changes", "Could not reach the server; your edits are kept and will be retried.");
        self.timer = setTimeout(function () { self.save(false); }, DELAY * 4);
      })
      .then(function () {
        var again = self.again;
        self.again = false;
        if (again) return self.save(again === true);
        if (self.hasPending()) self.changed();
      }));
  };

  Editor.prototype.saved = function (json, publish, body) {
    var self = this;
    var revision = json.meta.revision;
    // With no other write in between, every row read at the base is still current, and so are the
    // rows this save wrote; when others wrote meanwhile, the window is read again below.
    if (!json.behind) this.byId.forEach(function (row) { if (row.seen === body.baseRevision) row.seen = revision; });
    (body.addRows || []).forEach(function (r) { var row = self.byId.get(r.id); if (row) row.seen = revision; });
    // The cells written are known at this revision, and so is the base of any edit typed on top meanwhile.
    (body.cells || []).forEach(function (c) {
      var row = self.byId.get(c.rowId);
      if (row) { row.cellSeen = row.cellSeen || {}; row.cellSeen[c.key] = revision; }
      var later = self.pending.cells.get(c.rowId + "\u0000" + c.key);
      if (later) later.baseRevision = revision;
    });
    (body.deleteRowIds || []).forEach(function (id) { self.byId.delete(id); });
    this.latest = Math.max(this.latest, revision);
    this.total = json.meta.rowCount;
    this.takeNotes(json.notes || {}, body);
    this.takeDrafts(json.drafts || {}, body);
    (json.assignedKeys || []).forEach(function (k) {
      var row = self.byId.get(k.rowId);
      if (row) row.values.eventKey = k.eventKey;
      var input = self.cellInput(k.rowId, "eventKey");
      if (input) input.value = k.eventKey;
    });
    var note = publish ? (json.revalidationError || "Saved and homepage revalidated") : "Autosaved - homepage not yet updated";
    // The Publishing card counts the drafts again, and so does the editor.
    document.body.dispatchEvent(new CustomEvent("sheet-saved"));
    this.loadDrafts();
    var done = function () { if (!self.hasPending() && !self.saving) self.setStatus("All changes saved", note); else self.setStatus("Unsaved changes", note); };
    // Someone else wrote between our base and this save: fetch their changes, keep ours on top.
    // A publish clears the marks of every shown row: they are read again with the window.
    if (json.behind || publish) return this.refresh().then(done);
    done();
  };

  // The notes the server read in the rows a save wrote; a cell edited again since stays marked stale.
  Editor.prototype.takeNotes = function (notes, body) {
    var self = this;
    var ids = new Set((body.cells || []).map(function (c) { return c.rowId; }).concat((body.addRows || []).map(function (r) { return r.id; })));
    ids.forEach(function (id) {
      self.notes[id] = notes[id] || {};
      self.columns.forEach(function (c) {
        if (self.pending.cells.has(id + "\u0000" + c.key)) self.staleNote(id, c.key);
        var cell = self.cellInput(id, c.key);
        if (cell) self.drawNote(cell.parentElement, id, c.key);
      });
    });
    var box = this.$("[data-warnings]");
    if (box && box.open) this.loadWarnings();
  };

  // The draft marks of the rows a save wrote (a row deleted has none left to show).
  Editor.prototype.takeDrafts = function (drafts, body) {
    var self = this;
    var ids = new Set((body.cells || []).map(function (c) { return c.rowId; }).concat((body.addRows || []).map(function (r) { return r.id; })));
    ids.forEach(function (id) {
      self.drafts[id] = drafts[id] || null;
      self.drawDrafts(id);
    });
  };

  // The count of unpublished changes and the rows deleted since the last publish, from the server.
  // Answers that arrive out of order are dropped.
  Editor.prototype.loadDrafts = function () {
    var self = this;
    var seq = (this.draftSeq = (this.draftSeq || 0) + 1);
    return fetch(DRAFTS, { credentials: "same-origin" })
      .then(function (res) { return res.json(); })
      .then(function (json) { if (json.success && seq === self.draftSeq) self.showDrafts(json); })
      .catch(function () {});
  };

  Editor.prototype.showDrafts = function (summary) {
    var box = this.$("[data-drafts]");
    if (!box) return;
    this.summary = summary;
    var parts = [];
    if (summary.rowsAdded) parts.push(summary.rowsAdded + (summary.rowsAdded === 1 ? " row added" : " rows added"));
    if (summary.rowsChanged) parts.push(summary.rowsChanged + (summary.rowsChanged === 1 ? " row changed" : " rows changed"));
    if (summary.rowsDeleted) parts.push(summary.rowsDeleted + (summary.rowsDeleted === 1 ? " row deleted" : " rows deleted"));
    var text = summary.total === 0 ? "Everything is published: visitors see the sheet as it is here." : summary.total + (summary.total === 1 ? " unpublished change" : " unpublished changes") + " (" + parts.join(", ") + "). Marked cells differ from what visitors see.";
    box.querySelector("[data-drafts-count]").textContent = text;
    box.setAttribute("data-unpublished", String(summary.total));
    box.querySelector("[data-action=discard]").disabled = summary.total === 0;
    var deleted = box.querySelector("[data-drafts-deleted]");
    deleted.hidden = summary.deleted.length === 0;
    var list = el("ul", { class: "sheet-warning-list" });
    summary.deleted.forEach(function (row) {
      list.appendChild(el("li", {}, (row.title || "(no title)") + (row.eventKey ? " \u00b7 " + row.eventKey : "")));
    });
    deleted.querySelector("[data-drafts-deleted-count]").textContent = String(summary.rowsDeleted);
    deleted.querySelector("[data-drafts-deleted-list]").replaceChildren(list);
  };

  // Discards every unpublished change, this page's unsaved edits included: the working sheet goes
  // back to the published one (the server's POST /api/admin/sheet/discard), then the grid shows it.
  Editor.prototype.discard = function () {
    if (!window.confirm("Discard every unpublished change, unsaved edits included? The sheet goes back to what visitors see.")) return;
    var self = this;
    clearTimeout(this.timer);
    this.discarding = true;
    this.setStatus("Saving\u2026", "Discarding unpublished changes\u2026");
    var ready = this.inflight || Promise.resolve();
    // Unsaved edits are dropped only once the server has discarded; a refusal keeps them.
    var keep = function (note) {
      self.discarding = false;
      if (self.hasPending()) { self.setStatus("Unsaved changes", note); self.changed(); }
      else self.setStatus("All changes saved", note);
    };
    return ready
      .then(function () {
        clearTimeout(self.timer);
        return fetch(API + "/discard", { method: "POST", credentials: "same-origin" });
      })
      .then(function (res) { return res.json(); })
      .then(function (json) {
        if (!json.success) return keep(json.error || "Nothing was discarded.");
        document.body.dispatchEvent(new CustomEvent("sheet-saved"));
        return self.afterDiscard(json.discarded);
      })
      .catch(function () { keep("Could not reach the server; nothing was discarded."); });
  };

  // After a discard (here or on the Publishing card): the rows, marks and steps of this page are
  // dropped with the unsaved edits, and the same window is read again as visitors see it.
  Editor.prototype.afterDiscard = function (discarded) {
    var self = this;
    clearTimeout(this.timer);
    this.pending = { cells: new Map(), addRows: [], deleteRowIds: [], addColumns: [] };
    this.firstEditAt = 0;
    this.undoStack = [];
    this.redoStack = [];
    this.added = [];
    this.byId = new Map();
    this.rows = [];
    this.notes = {};
    this.drafts = {};
    this.conflict = null;
    var box = this.$("[data-conflict]");
    box.hidden = true;
    box.replaceChildren();
    return this.fetchWindow(this.rules.page, false, this.offset).then(function () {
      self.discarding = false;
      self.render();
      self.loadDrafts();
      self.setStatus("All changes saved", discarded === null ? "Discarded on the Publishing card: the sheet is as visitors see it." : discarded ? "Discarded " + discarded + (discarded === 1 ? " unpublished change" : " unpublished changes") + ": the sheet is as visitors see it." : "There was nothing to discard.");
    });
  };

  // Reads the window again (same search, as many rows as shown); pending edits stay on top.
  Editor.prototype.refresh = function () {
    var self = this;
    return this.fetchWindow(Math.max(this.rules.page, this.rows.length), false, this.offset).then(function () { self.render(); });
  };

  Editor.prototype.reload = function () {
    if (this.hasPending() && !window.confirm("Reload the sheet? Unsaved edits are kept and re-applied on top.")) return;
    var self = this;
    this.refresh().then(function () { self.setStatus(self.hasPending() ? "Unsaved changes" : "All changes saved", "Reloaded."); });
  };

  Editor.prototype.label = function (key) {
    var c = this.columns.find(function (x) { return x.key === key; });
    return c ? c.label : key;
  };

  // A Publish held by the server: titles changed under kept Event Keys, or rows removed. The box
  // (its words come with the page) lists them from the answer; "Publish anyway" sends the publish
  // again with the confirmation. Nothing was written; the edits stay pending and autosave.
  Editor.prototype.showHold = function (json) {
    var box = this.$("[data-publish-hold]");
    var review = json.review || { renamed: [], removed: [] };
    box.querySelector("[data-publish-hold-text]").textContent = json.error;
    var renamed = el("ul", { "data-renamed-list": "" });
    review.renamed.forEach(function (row) {
      var li = el("li");
      li.appendChild(el("del", {}, row.before));
      li.appendChild(document.createTextNode(" \u2192 "));
      li.appendChild(el("ins", {}, row.after || "(empty)"));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("code", {}, row.eventKey));
      renamed.appendChild(li);
    });
    var removed = el("ul", { "data-removed-list": "" });
    review.removed.forEach(function (row) {
      var li = el("li", {}, (row.title || "(no title)") + " ");
      li.appendChild(el("code", {}, row.eventKey));
      removed.appendChild(li);
    });
    box.querySelector("[data-renamed-list]").replaceWith(renamed);
    box.querySelector("[data-removed-list]").replaceWith(removed);
    box.querySelector("[data-publish-hold-renamed]").hidden = review.renamed.length === 0;
    box.querySelector("[data-publish-hold-removed]").hidden = review.removed.length === 0;
    box.hidden = false;
    this.setStatus(this.hasPending() ? "Unsaved changes" : "All changes saved", json.error);
  };

  Editor.prototype.hideHold = function () {
    this.$("[data-publish-hold]").hidden = true;
  };

  Editor.prototype.showConflict = function (json, body) {
    var self = this;
    this.conflict = { conflicts: json.conflicts || [], revision: json.meta && json.meta.revision };
    var box = this.$("[data-conflict]");
    box.replaceChildren();
    box.appendChild(el("h3", {}, "Someone else changed the sheet"));
    box.appendChild(el("p", {}, "These cells were changed since you loaded the sheet. Your edits are kept; choose what to do."));
    var list = el("ul", { class: "conflict-list" });
    this.conflict.conflicts.forEach(function (c) {
      var row = self.byId.get(c.rowId);
      var mine = (body.cells || []).find(function (x) { return x.rowId === c.rowId && x.key === c.key; });
      var li = el("li");
      li.appendChild(el("strong", {}, (row && row.values.title) || "(row)"));
      li.appendChild(document.createTextNode(" \u00b7 " + self.label(c.key) + ": theirs "));
      li.appendChild(el("q", { class: "theirs" }, c.value === null ? "(row deleted)" : c.value));
      li.appendChild(document.createTextNode(", yours "));
      li.appendChild(el("q", { class: "mine" }, mine ? mine.value : "(delete row)"));
      list.appendChild(li);
    });
    box.appendChild(list);
    var actions = el("div", { class: "card-actions" });
    actions.appendChild(el("button", { type: "button", class: "button button-small", "data-action": "reapply" }, "Re-apply my edits"));
    actions.appendChild(el("button", { type: "button", class: "button button-small button-quiet", "data-action": "keep-theirs" }, "Keep theirs"));
    box.appendChild(actions);
    box.hidden = false;
    this.setStatus("Unsaved changes", "Conflict: your edits were not saved yet.");
  };

  // Loads the current sheet, then either re-applies every edit of ours on top (mine win), or keeps
  // their values for the conflicting cells and re-applies the rest.
  Editor.prototype.resolve = function (mine) {
    var self = this;
    var conflict = this.conflict || { conflicts: [] };
    var at = conflict.revision;
    var p = this.pending;
    conflict.conflicts.forEach(function (c) {
      var k = c.rowId + "\u0000" + c.key;
      var row = self.byId.get(c.rowId);
      var d = p.deleteRowIds.indexOf(c.rowId);
      if (mine) {
        // Their value was seen now: my edit (or my delete) is based on it.
        if (p.cells.has(k)) p.cells.get(k).baseRevision = at;
        if (d !== -1 && row) row.seen = at;
      } else {
        p.cells.delete(k);
        if (d !== -1) p.deleteRowIds.splice(d, 1);
        if (row && c.value !== null) { row.values[c.key] = c.value; row.cellSeen = row.cellSeen || {}; row.cellSeen[c.key] = at; }
      }
    });
    // Edits to rows deleted meanwhile come back as new rows when re-applied, or go with "keep theirs".
    var gone = {};
    conflict.conflicts.forEach(function (c) { if (c.value === null) gone[c.rowId] = true; });
    Object.keys(gone).forEach(function (id) {
      var values = {};
      p.cells.forEach(function (c, k) { if (c.rowId === id) { values[c.key] = c.value; p.cells.delete(k); } });
      self.byId.delete(id);
      self.rows = self.rows.filter(function (r) { return r.id !== id; });
      if (!mine) return;
      var row = { id: uuid(), values: values };
      self.columns.forEach(function (c) { if (row.values[c.key] === undefined) row.values[c.key] = ""; });
      row.values.eventKey = "";
      self.byId.set(row.id, row);
      self.added.push(row);
      p.addRows.push(row);
    });
    this.conflict = null;
    var box = this.$("[data-conflict]");
    box.hidden = true;
    box.replaceChildren();
    this.refresh().then(function () {
      if (self.hasPending()) return self.save(false);
      self.setStatus("All changes saved", "Kept their changes.");
    });
  };

  function start() {
    document.querySelectorAll("[data-sheet-editor]:not([data-ready])").forEach(function (root) {
      root.setAttribute("data-ready", "");
      root.editor = new Editor(root);
    });
  }
  // The script follows its card in the page, so the card is already parsed: draw it now.
  start();
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:load", start);
})();
