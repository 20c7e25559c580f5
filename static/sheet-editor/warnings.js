// The sheet editor's warnings panel: every warning of the sheet, each with a button to its cell.

import { API, el } from "./shared.js";

export const warningMethods = {
  // Every warning of the whole sheet, from the server, each with a button that shows its cell.
  loadWarnings: function () {
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
  },

  // Shows a cell: in place when its row is drawn, else the page of the sheet that holds it.
  jump: function (rowId, position, key) {
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
  },
};
