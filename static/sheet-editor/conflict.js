// The sheet editor's held publishes and conflicts: the review boxes and their choices.

import { uuid, el } from "./shared.js";

export const conflictMethods = {
  label: function (key) {
    var c = this.columns.find(function (x) { return x.key === key; });
    return c ? c.label : key;
  },

  // A Publish held by the server: titles changed under kept Event Keys, or rows removed. The box
  // (its words come with the page) lists them from the answer; "Publish anyway" sends the publish
  // again with the confirmation. Nothing was written; the edits stay pending and autosave.
  showHold: function (json) {
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
  },

  hideHold: function () {
    this.$("[data-publish-hold]").hidden = true;
  },

  showConflict: function (json, body) {
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
  },

  // Loads the current sheet, then either re-applies every edit of ours on top (mine win), or keeps
  // their values for the conflicting cells and re-applies the rest.
  resolve: function (mine) {
    var self = this;
    /** @type {{ conflicts: any[], revision?: number }} */
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
  },
};
