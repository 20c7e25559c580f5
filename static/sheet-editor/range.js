// The sheet editor's range maths: where a cell sits among the shown rows and columns, the rectangle
// a selection spans, and which cells a fill, a clear or a pasted block writes. Cells are named by row
// id and column key, never by position, so an edit lands on the rows the person saw. Nothing here
// touches the page, so it is unit-tested (test/static/sheet-editor/range.test.ts).

/** @typedef {{ id: string, values: Record<string, string> }} Row */
/** @typedef {{ key: string }} Column */
/** @typedef {{ rowId: string, key: string }} CellRef */
/** @typedef {{ r: number, c: number }} CellIndex */
/** A selection's rectangle as indexes into the shown rows and the columns, both ends included. */
/** @typedef {{ r0: number, r1: number, c0: number, c1: number, anchor: CellIndex }} Range */
/** @typedef {{ rowId: string, key: string, value: string }} CellWrite */

/**
 * Where a cell is among the shown rows and the columns; null when its row or column is not shown.
 * @param {readonly { id: string }[]} rows
 * @param {readonly Column[]} columns
 * @param {CellRef} ref
 * @returns {CellIndex | null}
 */
export function cellIndex(rows, columns, ref) {
  var r = -1;
  for (var i = 0; i < rows.length; i++) if (rows[i].id === ref.rowId) { r = i; break; }
  var c = -1;
  for (var j = 0; j < columns.length; j++) if (columns[j].key === ref.key) { c = j; break; }
  return r === -1 || c === -1 ? null : { r: r, c: c };
}

/**
 * The rectangle from the anchor cell to the focus cell (the anchor alone when the focus is not
 * shown); null when the anchor is not shown.
 * @param {CellIndex | null} anchor
 * @param {CellIndex | null} focus
 * @returns {Range | null}
 */
export function rangeBetween(anchor, focus) {
  if (!anchor) return null;
  var f = focus || anchor;
  return { r0: Math.min(anchor.r, f.r), r1: Math.max(anchor.r, f.r), c0: Math.min(anchor.c, f.c), c1: Math.max(anchor.c, f.c), anchor: anchor };
}

/**
 * Whether a range spans more than one cell.
 * @param {Range | null} range
 * @returns {boolean}
 */
export function isMultiCell(range) {
  return !!range && (range.r0 !== range.r1 || range.c0 !== range.c1);
}

/**
 * Whether column `c` takes edits: a column that exists and is not the Event Key (the server's).
 * @param {readonly Column[]} columns
 * @param {number} c
 * @returns {boolean}
 */
export function isWritableColumn(columns, c) {
  return c >= 0 && c < columns.length && columns[c].key !== "eventKey";
}

/**
 * The cells a fill writes. Down: one row selected copies the row above into it, else the range's
 * first row into the rest. Right: likewise with the column on the left, or the range's first column.
 * Null when there is nothing to copy from (the range starts at the first row or column).
 * @param {Range} range
 * @param {"down" | "right"} direction
 * @param {readonly Row[]} rows the shown rows
 * @param {readonly Column[]} columns
 * @returns {CellWrite[] | null}
 */
export function fillWrites(range, direction, rows, columns) {
  var g = range;
  var cells = [];
  if (direction === "down") {
    var from = g.r0 === g.r1 ? g.r0 - 1 : g.r0;
    if (from < 0) return null;
    for (var c = g.c0; c <= g.c1; c++) {
      if (!isWritableColumn(columns, c)) continue;
      var key = columns[c].key;
      var value = rows[from].values[key] || "";
      for (var r = from + 1; r <= g.r1; r++) cells.push({ rowId: rows[r].id, key: key, value: value });
    }
  } else {
    var left = g.c0 === g.c1 ? g.c0 - 1 : g.c0;
    if (left < 0) return null;
    for (var r2 = g.r0; r2 <= g.r1; r2++) {
      var row = rows[r2];
      var v = row.values[columns[left].key] || "";
      for (var c2 = left + 1; c2 <= g.c1; c2++) if (isWritableColumn(columns, c2)) cells.push({ rowId: row.id, key: columns[c2].key, value: v });
    }
  }
  return cells;
}

/**
 * The cells a clear empties: every writable cell of the range.
 * @param {Range} g
 * @param {readonly Row[]} rows the shown rows
 * @param {readonly Column[]} columns
 * @returns {CellWrite[]}
 */
export function clearWrites(g, rows, columns) {
  var cells = [];
  for (var r = g.r0; r <= g.r1; r++) for (var c = g.c0; c <= g.c1; c++) if (isWritableColumn(columns, c)) cells.push({ rowId: rows[r].id, key: columns[c].key, value: "" });
  return cells;
}

/**
 * The values a range shows, row by row (a missing value is empty): what a copy puts on the clipboard.
 * @param {Range} g
 * @param {readonly Row[]} rows the shown rows
 * @param {readonly Column[]} columns
 * @returns {string[][]}
 */
export function rangeValues(g, rows, columns) {
  var out = [];
  for (var r = g.r0; r <= g.r1; r++) {
    var values = [];
    for (var c = g.c0; c <= g.c1; c++) values.push(rows[r].values[columns[c].key] || "");
    out.push(values);
  }
  return out;
}

/**
 * The shape a pasted block takes over the range: one value over a range fills the whole range
 * (`fill` true); any other block keeps its own height and its widest row's width.
 * @param {readonly (readonly string[])[]} block
 * @param {Range} g
 * @returns {{ fill: boolean, height: number, width: number }}
 */
export function pasteShape(block, g) {
  var fill = block.length === 1 && block[0].length === 1;
  return {
    fill: fill,
    height: fill ? g.r1 - g.r0 + 1 : block.length,
    width: fill ? g.c1 - g.c0 + 1 : Math.max.apply(null, block.map(function (l) { return l.length; })),
  };
}

/**
 * The block written when one value fills a range: that value in every cell, `height` rows of `width`.
 * @param {string} value
 * @param {number} height
 * @param {number} width
 * @returns {string[][]}
 */
export function filledBlock(value, height, width) {
  var rows = [];
  while (rows.length < height) {
    var line = [];
    for (var i = 0; i < width; i++) line.push(value);
    rows.push(line);
  }
  return rows;
}

/**
 * The cells a block writes into the target rows `ids` (by id, one per block row) under the column
 * `keys`: each value trimmed, a row shorter than the keys writing only its own cells, the Event Key
 * never written.
 * @param {readonly (readonly string[])[]} block
 * @param {readonly string[]} ids
 * @param {readonly string[]} keys
 * @param {number} height
 * @returns {CellWrite[]}
 */
export function blockWrites(block, ids, keys, height) {
  var cells = [];
  for (var i = 0; i < height; i++) {
    var line = block[i] || [];
    for (var j = 0; j < keys.length && j < line.length; j++) {
      if (keys[j] === "eventKey") continue;
      cells.push({ rowId: ids[i], key: keys[j], value: line[j].trim() });
    }
  }
  return cells;
}

/**
 * The rows a block of `height` rows written from shown row `r0` lands in, before any fetch: the ids
 * of the shown rows from `r0` down and how many rows are still missing below them.
 * @param {readonly { id: string }[]} shown
 * @param {number} r0
 * @param {number} height
 * @returns {{ ids: string[], missing: number }}
 */
export function shownTargets(shown, r0, height) {
  var ids = shown.slice(r0, r0 + height).map(function (r) { return r.id; });
  return { ids: ids, missing: height - ids.length };
}

/**
 * The stored rows that follow `tail` in the window (deleted ones skipped), at most `missing` of them:
 * where a block that ran past the last shown row continues once the next rows are fetched.
 * @template {{ id: string }} T
 * @param {readonly T[]} stored the window's rows as the sheet orders them
 * @param {T} tail the last stored row before the fetch
 * @param {ReadonlySet<string>} deleted
 * @param {number} missing
 * @returns {T[]}
 */
export function rowsAfter(stored, tail, deleted, missing) {
  var at = stored.indexOf(tail);
  return at === -1 ? [] : stored.slice(at + 1).filter(function (r) { return !deleted.has(r.id); }).slice(0, missing);
}
