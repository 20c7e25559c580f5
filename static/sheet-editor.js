// The event sheet editor grid (see docs/console.md, "Event sheet editor"). Holds one window of the
// sheet: the first 50 rows (or the first 50 matching the search) come with the page, "Show 50
// more" and searches fetch further windows from GET /api/admin/sheet, so a 2,000-row sheet is never
// loaded whole. Autosaves only the changed cells to PATCH /api/admin/sheet 850 ms after the last
// edit and at least every 850 ms while typing. Every write names the revision the touched rows
// were read at; a 409 opens the conflict view with both values and nothing of the admin's is
// dropped until they choose.
(function () {
  "use strict";
  var API = "/api/admin/sheet";
  var PAGE = 50;
  var DELAY = 850;
  var FROZEN = 2;

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

  function Editor(root) {
    this.root = root;
    var sheet = JSON.parse(root.querySelector("[data-sheet]").getAttribute("data-sheet"));
    this.pending = { cells: new Map(), addRows: [], deleteRowIds: [], addColumns: [] };
    this.byId = new Map();
    this.rows = [];
    this.added = [];
    this.latest = 0;
    this.window(sheet, false);
    this.undoStack = [];
    this.redoStack = [];
    this.query = (sheet.search || "").trim();
    this.saving = false;
    this.firstEditAt = 0;
    this.timer = 0;
    this.fetchSeq = 0;
    this.bind();
    this.render();
    if (window.performance && performance.mark) performance.mark("sheet-editor:first-grid");
  }

  // Takes a window of rows from the server. Each row remembers the revision it was read at (the
  // base of its edits); rows already known keep their object, with pending edits put back on top.
  Editor.prototype.window = function (sheet, append) {
    var self = this;
    var seen = sheet.meta.revision;
    this.latest = Math.max(this.latest, seen);
    this.total = sheet.meta.rowCount;
    this.matching = sheet.matching;
    var known = new Set(sheet.columns.map(function (c) { return c.key; }));
    // Columns added here and not saved yet stay.
    this.columns = sheet.columns.concat(this.pending.addColumns.filter(function (c) { return !known.has(c.key); }).map(function (c) { return { key: c.key, label: c.label, isCore: false, isRequired: false }; }));
    var list = sheet.rows.map(function (r) {
      var row = self.byId.get(r.id);
      if (!row) { row = { id: r.id, values: {} }; self.byId.set(r.id, row); }
      row.values = Object.assign({}, r.values);
      row.position = r.position;
      row.seen = seen;
      return row;
    });
    this.pending.cells.forEach(function (c) { var row = self.byId.get(c.rowId); if (row) row.values[c.key] = c.value; });
    if (append) {
      var have = new Set(this.rows.map(function (r) { return r.id; }));
      this.rows = this.rows.concat(list.filter(function (r) { return !have.has(r.id); }));
    } else {
      this.rows = list;
    }
  };

  // Fetches the first `size` rows of the current search (or, with `append`, the next page).
  Editor.prototype.fetchWindow = function (size, append) {
    var self = this;
    var seq = ++this.fetchSeq;
    var params = new URLSearchParams({ offset: String(append ? this.rows.length : 0), limit: String(size) });
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
      else if (action === "more") self.fetchWindow(PAGE, true).then(function () { self.render(); });
      else if (action === "delete-row") self.deleteRow(button.getAttribute("data-row"));
      else if (action === "reapply") self.resolve(true);
      else if (action === "keep-theirs") self.resolve(false);
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
        self.fetchWindow(PAGE, false).then(function (fresh) { if (fresh) self.render(); });
      }, 200);
    });
    var wrap = this.$("[data-grid-wrap]");
    wrap.addEventListener("focusin", function (e) {
      var input = e.target;
      if (input.tagName === "INPUT") input.setAttribute("data-before", input.value);
    });
    wrap.addEventListener("input", function (e) {
      var input = e.target;
      if (input.tagName !== "INPUT" || input.readOnly) return;
      self.setCell(input.getAttribute("data-row"), input.getAttribute("data-key"), input.value, false);
    });
    wrap.addEventListener("change", function (e) {
      var input = e.target;
      if (input.tagName !== "INPUT" || input.readOnly) return;
      var before = input.getAttribute("data-before");
      if (before !== null && before !== input.value) {
        self.pushUndo({ type: "cell", rowId: input.getAttribute("data-row"), key: input.getAttribute("data-key"), before: before, after: input.value });
        input.setAttribute("data-before", input.value);
      }
    });
    wrap.addEventListener("keydown", function (e) { self.key(e); });
    window.addEventListener("beforeunload", function (e) {
      if (self.hasPending() || self.saving) { e.preventDefault(); e.returnValue = ""; }
    });
  };

  // Spreadsheet keys: arrows move (left/right at the text edges), Enter moves down, Tab is native,
  // Escape puts back the value the cell had when it was entered.
  Editor.prototype.key = function (e) {
    var input = e.target;
    if (input.tagName !== "INPUT") return;
    var td = input.closest("td");
    var tr = td.parentElement;
    var col = Array.prototype.indexOf.call(tr.children, td);
    var target;
    if (e.key === "Escape") {
      var before = input.getAttribute("data-before");
      if (before !== null && !input.readOnly && input.value !== before) {
        input.value = before;
        this.setCell(input.getAttribute("data-row"), input.getAttribute("data-key"), before, false);
      }
      e.preventDefault();
      return;
    }
    var atStart = input.selectionStart === 0 && input.selectionEnd === 0;
    var atEnd = input.selectionStart === input.value.length;
    if (e.key === "ArrowDown" || (e.key === "Enter" && !e.shiftKey)) target = tr.nextElementSibling && tr.nextElementSibling.children[col];
    else if (e.key === "ArrowUp" || (e.key === "Enter" && e.shiftKey)) target = tr.previousElementSibling && tr.previousElementSibling.children[col];
    else if (e.key === "ArrowLeft" && (atStart || input.readOnly)) target = td.previousElementSibling;
    else if (e.key === "ArrowRight" && (atEnd || input.readOnly)) target = td.nextElementSibling;
    else return;
    var next = target && target.querySelector("input");
    if (e.key === "Enter" && input.readOnly === false) input.dispatchEvent(new Event("change", { bubbles: true }));
    if (next) {
      e.preventDefault();
      next.focus();
      next.select();
    }
  };

  // A row added in this session matches the search when one of its cells contains it.
  Editor.prototype.matches = function (row) {
    var q = this.query.toLowerCase();
    if (!q) return true;
    for (var k in row.values) if (String(row.values[k]).toLowerCase().indexOf(q) !== -1) return true;
    return false;
  };

  // The window's rows, then the rows added in this session that it does not hold, less deleted ones.
  Editor.prototype.visibleRows = function () {
    var deleted = new Set(this.pending.deleteRowIds);
    var inWindow = new Set(this.rows.map(function (r) { return r.id; }));
    var self = this;
    var extra = this.added.filter(function (r) { return !inWindow.has(r.id) && self.byId.has(r.id) && self.matches(r); });
    return this.rows.concat(extra).filter(function (r) { return !deleted.has(r.id); });
  };

  Editor.prototype.render = function () {
    var wrap = this.$("[data-grid-wrap]");
    var active = document.activeElement;
    var focus = active && wrap.contains(active) ? { row: active.getAttribute("data-row"), key: active.getAttribute("data-key") } : null;
    var shown = this.visibleRows();
    var table = el("table", { class: "sheet-grid" });
    var head = el("tr");
    head.appendChild(el("th", { class: "frozen frozen-0", scope: "col" }, "#"));
    var self = this;
    this.columns.forEach(function (c, i) {
      var th = el("th", { scope: "col", class: i < FROZEN - 1 ? "frozen frozen-1" : "" }, c.label);
      if (c.key === "eventKey") th.title = "Read-only: assigned once, when the row is first saved";
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    // Rows added here and not in the window sit at the end of the sheet: the saved ones within
    // the stored total, the unsaved ones after it.
    var pendingAdds = this.pending.addRows;
    var extra = this.total - shown.filter(function (r) { return !r.position && pendingAdds.indexOf(r) === -1; }).length;
    shown.forEach(function (row) {
      var index = row.position || ++extra;
      var tr = el("tr", { "data-row": row.id });
      var first = el("td", { class: "frozen frozen-0 row-head" });
      first.appendChild(el("span", { class: "row-number" }, String(index)));
      var del = el("button", { type: "button", class: "row-delete", "data-action": "delete-row", "data-row": row.id, "aria-label": "Delete row " + index + " " + (row.values.title || "") }, "×");
      first.appendChild(del);
      tr.appendChild(first);
      self.columns.forEach(function (c, i) {
        var td = el("td", { class: i < FROZEN - 1 ? "frozen frozen-1" : "" });
        var input = el("input", { type: "text", "data-row": row.id, "data-key": c.key, "aria-label": c.label + ", row " + index });
        input.value = row.values[c.key] || "";
        if (c.key === "eventKey") { input.readOnly = true; input.className = "readonly"; }
        td.appendChild(input);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    wrap.replaceChildren(table);
    // Counts: the server's, less rows deleted here, plus rows added here and not saved yet.
    var p = this.pending;
    var deletedHere = this.rows.filter(function (r) { return p.deleteRowIds.indexOf(r.id) !== -1; }).length;
    var addedHere = p.addRows.filter(function (r) { return self.matches(r); }).length;
    var of = Math.max(shown.length, this.matching - deletedHere + addedHere);
    var total = this.total - p.deleteRowIds.length + p.addRows.length;
    this.$("[data-action=more]").hidden = this.rows.length >= this.matching;
    this.$("[data-count]").textContent = "Showing " + shown.length + " of " + of + " rows" + (this.query ? " matching the search (" + total + " in all)" : "") + ".";
    this.$("[data-action=undo]").disabled = this.undoStack.length === 0;
    this.$("[data-action=redo]").disabled = this.redoStack.length === 0;
    if (focus && focus.row) {
      var again = wrap.querySelector('input[data-row="' + focus.row + '"][data-key="' + focus.key + '"]');
      if (again) again.focus();
    }
  };

  Editor.prototype.cellInput = function (rowId, key) {
    return this.$('[data-grid-wrap] input[data-row="' + rowId + '"][data-key="' + key + '"]');
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
    if (redraw) {
      var input = this.cellInput(rowId, key);
      if (input) { input.value = value; input.setAttribute("data-before", value); }
    }
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
    if (op.type === "cell") this.setCell(op.rowId, op.key, reverse ? op.before : op.after, true);
    else if (op.type === "add-row") { if (reverse) this.removeRow(op.row.id); else this.insertRow(op.row); }
    else if (op.type === "delete-row") { if (reverse) this.insertRow(op.row); else this.removeRow(op.row.id); }
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
    if (this.query) {
      this.query = "";
      this.$("[data-search]").value = "";
      return this.fetchWindow(PAGE, false).then(function () { self.render(); focus(); });
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
    var slug = label.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40) || "column";
    var key = "custom_" + slug + "_" + uuid().slice(0, 6);
    var column = { key: key, label: label, isCore: false, isRequired: false };
    this.columns.push(column);
    this.byId.forEach(function (r) { r.values[key] = ""; });
    this.pending.addColumns.push({ key: key, label: label });
    this.changed();
    this.render();
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

  // The edits to send, based on the oldest revision any touched stored row was read at: a cell
  // someone else changed after this admin last saw it is a conflict, never silently overwritten.
  Editor.prototype.takePending = function () {
    var p = this.pending;
    var self = this;
    var base = this.latest;
    var added = new Set(p.addRows.map(function (r) { return r.id; }));
    var cells = [];
    p.cells.forEach(function (c) {
      if (added.has(c.rowId)) return;
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
    if (this.conflict) { this.setStatus("Unsaved changes", "Resolve the conflict first."); return Promise.resolve(); }
    if (this.saving) { this.again = this.again || publish || "autosave"; return Promise.resolve(); }
    if (!publish && !this.hasPending()) return Promise.resolve();
    var body = this.takePending();
    if (publish) body.publish = true;
    this.saving = true;
    this.setStatus("Saving\u2026", publish ? "Saving and revalidating the homepage\u2026" : undefined);
    return fetch(API, { method: "PATCH", headers: { "content-type": "application/json" }, credentials: "same-origin", body: JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return { success: false, error: "Unexpected answer (" + res.status + ")" }; }).then(function (json) { return { status: res.status, json: json }; });
      })
      .then(function (r) {
        self.saving = false;
        if (r.status === 200 && r.json.success) return self.saved(r.json, publish, body);
        self.restorePending(body);
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
      });
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
    (json.assignedKeys || []).forEach(function (k) {
      var row = self.byId.get(k.rowId);
      if (row) row.values.eventKey = k.eventKey;
      var input = self.cellInput(k.rowId, "eventKey");
      if (input) input.value = k.eventKey;
    });
    var note = publish ? (json.revalidationError || "Saved and homepage revalidated") : "Autosaved - homepage not yet updated";
    // The Publishing card counts the drafts again.
    document.body.dispatchEvent(new CustomEvent("sheet-saved"));
    var done = function () { if (!self.hasPending() && !self.saving) self.setStatus("All changes saved", note); else self.setStatus("Unsaved changes", note); };
    // Someone else wrote between our base and this save: fetch their changes, keep ours on top.
    if (json.behind) return this.refresh().then(done);
    done();
  };

  // Reads the window again (same search, as many rows as shown); pending edits stay on top.
  Editor.prototype.refresh = function () {
    var self = this;
    return this.fetchWindow(Math.max(PAGE, this.rows.length), false).then(function () { self.render(); });
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
