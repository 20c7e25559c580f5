// The sheet editor's autosave: pending edits sent as one PATCH, answers taken back into the grid.

import { API, DELAY } from "./shared.js";

export const saveMethods = {
  changed: function () {
    var now = Date.now();
    if (!this.firstEditAt) this.firstEditAt = now;
    this.setStatus("Unsaved changes");
    clearTimeout(this.timer);
    // 850 ms after the last edit, and never more than 850 ms after the first unsaved one.
    var wait = Math.max(0, Math.min(DELAY, this.firstEditAt + DELAY - now));
    var self = this;
    this.timer = setTimeout(function () { self.save(false); }, wait);
  },

  takePending: function () {
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
  },

  // Puts a failed write's edits back under any made since, so nothing is lost.
  restorePending: function (body) {
    var p = this.pending;
    var later = p.cells;
    p.cells = new Map();
    (body.cells || []).forEach(function (c) { p.cells.set(c.rowId + "\u0000" + c.key, c); });
    later.forEach(function (v, k) { var had = p.cells.get(k); if (had) v.baseRevision = had.baseRevision; p.cells.set(k, v); });
    p.addRows = (body.addRows || []).map(function (r) { return this.byId.get(r.id) || r; }, this).concat(p.addRows);
    p.deleteRowIds = (body.deleteRowIds || []).concat(p.deleteRowIds);
    p.addColumns = (body.addColumns || []).concat(p.addColumns);
  },

  save: function (publish) {
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
  },

  saved: function (json, publish, body) {
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
  },

  // The notes the server read in the rows a save wrote; a cell edited again since stays marked stale.
  takeNotes: function (notes, body) {
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
  },

  // The draft marks of the rows a save wrote (a row deleted has none left to show).
  takeDrafts: function (drafts, body) {
    var self = this;
    var ids = new Set((body.cells || []).map(function (c) { return c.rowId; }).concat((body.addRows || []).map(function (r) { return r.id; })));
    ids.forEach(function (id) {
      self.drafts[id] = drafts[id] || null;
      self.drawDrafts(id);
    });
  },
};
