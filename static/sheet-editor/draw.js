// The sheet editor's drawing: the shown rows, each cell with its reading, warning and draft mark.

import { FROZEN, DRAFT_ROW, draftTitle, el } from "./shared.js";
import { escapeHtml } from "./clipboard.js";

export const drawMethods = {
  // A row added in this session matches the search when one of its cells contains it.
  matches: function (row) {
    var q = this.query.toLowerCase();
    if (!q) return true;
    for (var k in row.values) if (String(row.values[k]).toLowerCase().indexOf(q) !== -1) return true;
    return false;
  },

  // The window's rows, then the rows added in this session that it does not hold, less deleted
  // ones; then the column filters and the sort, which never change the stored order.
  visibleRows: function () {
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
  },

  // The reading or warning under a cell, from the server's notes.
  noteOf: function (rowId, key) {
    var n = this.notes[rowId];
    return n && n[key];
  },

  staleNote: function (rowId, key) {
    var n = this.notes[rowId];
    if (n && n[key]) n[key].stale = true;
  },

  // The published value of a cell that differs from it, or null when the cell is as published (a
  // row visitors do not have yet is marked as a whole).
  draftOf: function (rowId, key) {
    var mark = this.drafts[rowId];
    if (!mark || !mark.cells || !Object.prototype.hasOwnProperty.call(mark.cells, key)) return null;
    return mark.cells[key];
  },

  isAdded: function (rowId) {
    var mark = this.drafts[rowId];
    return !!(mark && mark.added);
  },

  // Marks a drawn row and its cells again after a save brought their marks.
  drawDrafts: function (rowId) {
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
  },

  drawNote: function (td, rowId, key) {
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
  },

  render: function () {
    var self = this;
    var wrap = this.$("[data-grid-wrap]");
    var active = /** @type {HTMLTextAreaElement | null} */ (document.activeElement);
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
  },
};
