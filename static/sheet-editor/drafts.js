// The sheet editor's drafts: the unpublished count, Discard, and reading the window again.

import { API, DRAFTS, el } from "./shared.js";

export const draftMethods = {
  // The count of unpublished changes and the rows deleted since the last publish, from the server.
  // Answers that arrive out of order are dropped.
  loadDrafts: function () {
    var self = this;
    var seq = (this.draftSeq = (this.draftSeq || 0) + 1);
    return fetch(DRAFTS, { credentials: "same-origin" })
      .then(function (res) { return res.json(); })
      .then(function (json) { if (json.success && seq === self.draftSeq) self.showDrafts(json); })
      .catch(function () {});
  },

  showDrafts: function (summary) {
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
  },

  // Discards every unpublished change, this page's unsaved edits included: the working sheet goes
  // back to the published one (the server's POST /api/admin/sheet/discard), then the grid shows it.
  discard: function () {
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
  },

  // After a discard (here or on the Publishing card): the rows, marks and steps of this page are
  // dropped with the unsaved edits, and the same window is read again as visitors see it.
  afterDiscard: function (discarded) {
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
  },

  // Reads the window again (same search, as many rows as shown); pending edits stay on top.
  refresh: function () {
    var self = this;
    return this.fetchWindow(Math.max(this.rules.page, this.rows.length), false, this.offset).then(function () { self.render(); });
  },

  reload: function () {
    if (this.hasPending() && !window.confirm("Reload the sheet? Unsaved edits are kept and re-applied on top.")) return;
    var self = this;
    this.refresh().then(function () { self.setStatus(self.hasPending() ? "Unsaved changes" : "All changes saved", "Reloaded."); });
  },
};
