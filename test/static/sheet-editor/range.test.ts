// The sheet editor's range maths (static/sheet-editor/range.js): where a cell sits, the rectangle a
// selection spans, and which cells a fill, a clear or a paste writes, always by row id and column
// key, so an edit lands on the rows the person saw whatever is drawn or fetched meanwhile.

import { describe, expect, test } from "bun:test";
import { blockWrites, cellIndex, clearWrites, filledBlock, fillWrites, isMultiCell, isWritableColumn, pasteShape, rangeBetween, rangeValues, rowsAfter, shownTargets } from "../../../static/sheet-editor/range.js";

const columns = [{ key: "eventKey" }, { key: "title" }, { key: "date" }, { key: "notes" }];
const row = (id: string, title: string, date = "", notes = "") => ({ id, values: { eventKey: `evt_${id}`, title, date, notes } });
const rows = [row("r1", "One", "2026-06-21", "n1"), row("r2", "Two", "2026-06-22"), row("r3", "Three"), row("r4", "Four", "", "n4")];
const range = (r0: number, r1: number, c0: number, c1: number) => ({ r0, r1, c0, c1, anchor: { r: r0, c: c0 } });

describe("where a cell is", () => {
  test("by row id and column key among the shown rows", () => {
    expect(cellIndex(rows, columns, { rowId: "r3", key: "date" })).toEqual({ r: 2, c: 2 });
    expect(cellIndex(rows, columns, { rowId: "r1", key: "eventKey" })).toEqual({ r: 0, c: 0 });
  });
  test("null when its row or its column is not shown", () => {
    expect(cellIndex(rows, columns, { rowId: "gone", key: "date" })).toBeNull();
    expect(cellIndex(rows, columns, { rowId: "r1", key: "gone" })).toBeNull();
    expect(cellIndex([], columns, { rowId: "r1", key: "title" })).toBeNull();
  });
});

describe("the selected rectangle", () => {
  test.each([
    ["anchor above left of the focus", { r: 1, c: 1 }, { r: 3, c: 2 }, { r0: 1, r1: 3, c0: 1, c1: 2 }],
    ["anchor below right of the focus", { r: 3, c: 2 }, { r: 1, c: 1 }, { r0: 1, r1: 3, c0: 1, c1: 2 }],
    ["anchor below left of the focus", { r: 3, c: 0 }, { r: 0, c: 3 }, { r0: 0, r1: 3, c0: 0, c1: 3 }],
    ["one cell", { r: 2, c: 2 }, { r: 2, c: 2 }, { r0: 2, r1: 2, c0: 2, c1: 2 }],
  ])("%s", (_name, anchor, focus, bounds) => {
    expect(rangeBetween(anchor, focus)).toEqual({ ...bounds, anchor });
  });
  test("the anchor alone when the focus is not shown; none without an anchor", () => {
    expect(rangeBetween({ r: 1, c: 2 }, null)).toEqual({ r0: 1, r1: 1, c0: 2, c1: 2, anchor: { r: 1, c: 2 } });
    expect(rangeBetween(null, { r: 1, c: 2 })).toBeNull();
  });
  test("a range is more than one cell", () => {
    expect(isMultiCell(range(1, 1, 2, 2))).toBe(false);
    expect(isMultiCell(range(1, 2, 2, 2))).toBe(true);
    expect(isMultiCell(range(1, 1, 1, 2))).toBe(true);
    expect(isMultiCell(null)).toBe(false);
  });
});

describe("fill, clear and copy", () => {
  test("the Event Key and columns outside the sheet take no edits", () => {
    expect([-1, 0, 1, 3, 4].map((c) => isWritableColumn(columns, c))).toEqual([false, false, true, true, false]);
  });
  test("fill down over several rows copies the first row into the others, column by column", () => {
    expect(fillWrites(range(0, 2, 1, 2), "down", rows, columns)).toEqual([
      { rowId: "r2", key: "title", value: "One" },
      { rowId: "r3", key: "title", value: "One" },
      { rowId: "r2", key: "date", value: "2026-06-21" },
      { rowId: "r3", key: "date", value: "2026-06-21" },
    ]);
  });
  test("fill down on one row copies the row above; on the first row there is nothing to copy", () => {
    expect(fillWrites(range(2, 2, 3, 3), "down", rows, columns)).toEqual([{ rowId: "r3", key: "notes", value: "" }]);
    expect(fillWrites(range(0, 0, 1, 1), "down", rows, columns)).toBeNull();
  });
  test("fill down never writes the Event Key", () => {
    expect(fillWrites(range(0, 1, 0, 1), "down", rows, columns)).toEqual([{ rowId: "r2", key: "title", value: "One" }]);
  });
  test("fill right copies the first column of the range (or the one on its left) across", () => {
    expect(fillWrites(range(0, 1, 1, 3), "right", rows, columns)).toEqual([
      { rowId: "r1", key: "date", value: "One" },
      { rowId: "r1", key: "notes", value: "One" },
      { rowId: "r2", key: "date", value: "Two" },
      { rowId: "r2", key: "notes", value: "Two" },
    ]);
    expect(fillWrites(range(3, 3, 3, 3), "right", rows, columns)).toEqual([{ rowId: "r4", key: "notes", value: "" }]);
    expect(fillWrites(range(0, 0, 0, 0), "right", rows, columns)).toBeNull();
  });
  test("clear empties every writable cell of the range", () => {
    expect(clearWrites(range(1, 2, 0, 1), rows, columns)).toEqual([
      { rowId: "r2", key: "title", value: "" },
      { rowId: "r3", key: "title", value: "" },
    ]);
  });
  test("copy takes the range's values row by row, a missing value empty", () => {
    expect(rangeValues(range(0, 1, 2, 3), rows, columns)).toEqual([
      ["2026-06-21", "n1"],
      ["2026-06-22", ""],
    ]);
  });
});

describe("paste", () => {
  test("a block keeps its height and its widest row's width", () => {
    expect(pasteShape([["a", "b"], ["c"], ["d", "e", "f"]], range(1, 1, 1, 1))).toEqual({ fill: false, height: 3, width: 3 });
  });
  test("one value over a range fills the range", () => {
    expect(pasteShape([["x"]], range(1, 3, 1, 2))).toEqual({ fill: true, height: 3, width: 2 });
    expect(filledBlock("x", 3, 2)).toEqual([
      ["x", "x"],
      ["x", "x"],
      ["x", "x"],
    ]);
  });
  test("the block lands on the shown rows from the range's top row down, by id", () => {
    expect(shownTargets(rows, 1, 2)).toEqual({ ids: ["r2", "r3"], missing: 0 });
    expect(shownTargets(rows, 2, 5)).toEqual({ ids: ["r3", "r4"], missing: 3 });
  });
  test("the cells written: trimmed values by row id and column key, short rows writing their own cells, never the Event Key", () => {
    expect(blockWrites([[" a ", "b"], ["c"]], ["r2", "r3"], ["eventKey", "title"], 2)).toEqual([{ rowId: "r2", key: "title", value: "b" }]);
    expect(blockWrites([["a", "b"], ["c"]], ["r2", "r3"], ["title", "date"], 2)).toEqual([
      { rowId: "r2", key: "title", value: "a" },
      { rowId: "r2", key: "date", value: "b" },
      { rowId: "r3", key: "title", value: "c" },
    ]);
  });
  test("ids taken when the paste starts keep it on those rows, whatever is shown when it is written", () => {
    const target = shownTargets(rows, 1, 2);
    // Rows fetched or drawn meanwhile change the positions, not the ids the block was taken for.
    const shownLater = [row("new", "Inserted"), ...rows];
    const cells = blockWrites([["x"], ["y"]], target.ids, ["title"], 2);
    expect(cells.map((c) => c.rowId)).toEqual(["r2", "r3"]);
    expect(cellIndex(shownLater, columns, { rowId: cells[0]!.rowId, key: "title" })).toEqual({ r: 2, c: 1 });
  });
  test("a block past the last shown row continues on the stored rows after it, deleted ones skipped", () => {
    const stored = [...rows, row("r5", "Five"), row("r6", "Six"), row("r7", "Seven")];
    expect(rowsAfter(stored, stored[3]!, new Set(["r6"]), 2).map((r) => r.id)).toEqual(["r5", "r7"]);
    expect(rowsAfter(stored, stored[3]!, new Set(), 1).map((r) => r.id)).toEqual(["r5"]);
    expect(rowsAfter(stored, row("gone", "Gone"), new Set(), 2)).toEqual([]);
  });
});
