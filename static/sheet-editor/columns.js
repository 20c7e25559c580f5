// The sheet editor's column tools: sort, filter, wrap and resize the shown rows' columns.

import { WIDTH, MIN_WIDTH } from "./shared.js";

export const columnMethods = {
  // Sorting cycles ascending, descending, off; it orders the shown rows only.
  sortBy: function (key) {
    if (!this.sort || this.sort.key !== key) this.sort = { key: key, dir: 1 };
    else if (this.sort.dir === 1) this.sort.dir = -1;
    else this.sort = null;
    this.render();
  },

  activeFilters: function () {
    var f = this.filters;
    return Object.keys(f).some(function (k) { return f[k].trim() !== ""; });
  },

  toggleFilters: function () {
    this.filtering = !this.filtering;
    if (!this.filtering) this.filters = {};
    this.$("[data-action=filter]").setAttribute("aria-pressed", String(this.filtering));
    this.render();
    var first = this.$("[data-filter]");
    if (first) first.focus();
  },

  toggleWrap: function (button) {
    var on = !this.root.classList.contains("sheet-wrap-text");
    this.root.classList.toggle("sheet-wrap-text", on);
    button.setAttribute("aria-pressed", String(on));
  },

  widthOf: function (key) {
    return this.widths[key] || WIDTH[key] || 140;
  },

  startResize: function (e, handle) {
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
  },
};
