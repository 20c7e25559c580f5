// The sheet editor's selection: the active cell and the range it spans, by row id and column key.

import { cellIndex, isMultiCell, rangeBetween } from "./range.js";

export const selectionMethods = {
  select: function (rowId, key) {
    this.sel = { anchor: { rowId: rowId, key: key }, focus: { rowId: rowId, key: key } };
    this.paint();
  },

  extendTo: function (rowId, key) {
    if (!this.sel) return this.select(rowId, key);
    this.sel.focus = { rowId: rowId, key: key };
    this.paint();
  },

  indexOf: function (ref) {
    return cellIndex(this.shown, this.columns, ref);
  },

  // The selected rectangle as indexes into the shown rows and the columns; null when none.
  range: function () {
    if (!this.sel) return null;
    return rangeBetween(this.indexOf(this.sel.anchor), this.indexOf(this.sel.focus));
  },

  isRange: function () {
    return isMultiCell(this.range());
  },

  paint: function () {
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
  },
};
