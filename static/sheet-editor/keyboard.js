// The sheet editor's keyboard: spreadsheet keys over the grid.

export const keyboardMethods = {
  // Spreadsheet keys: arrows move (left/right at the text edges, up/down at the first/last line),
  // Shift with them extends the range, Enter moves down (Alt+Enter writes a line break), Tab is
  // native, Escape puts back the value the cell had when it was entered; Ctrl/Cmd+D and +R fill
  // down and right, Delete clears a range, Ctrl/Cmd+Z and +Y (or Shift+Z) undo and redo.
  key: function (e) {
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
  },

  cellAt: function (r, c) {
    var body = this.$("[data-grid-wrap] tbody");
    var tr = body && body.rows[r];
    var td = tr && tr.cells[c + 1];
    return td ? td.querySelector("textarea") : null;
  },
};
