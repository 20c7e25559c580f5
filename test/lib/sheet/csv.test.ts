// CSV reading (§1.3) and writing (domain CSV quoting).

import { describe, expect, test } from "bun:test";
import { csvCell, parseCsvRecords, parseSheetCsv, toCsv } from "../../../src/lib/sheet/csv.ts";

describe("parseCsvRecords", () => {
  test.each([
    ["BOM dropped", "\ufeffTitle,Date\nA,B\n", [["Title", "Date"], ["A", "B"]]],
    ["CRLF line ends", "Title,Date\r\nA,B\r\n", [["Title", "Date"], ["A", "B"]]],
    ["quoted comma and newline", 'Title,Notes\n"A, B","line 1\r\nline 2"\n', [["Title", "Notes"], ["A, B", "line 1\nline 2"]]],
    ["doubled quotes", 'T\n"say ""hi"""\n', [["T"], ['say "hi"']]],
    ["cells trimmed", "  Title , Date \n  A  ,  B  ", [["Title", "Date"], ["A", "B"]]],
    ["blank line kept as a record", "T\n\nA\n", [["T"], [""], ["A"]]],
    ["empty text", "", []],
  ])("%s", (_name, text, expected) => {
    expect(parseCsvRecords(text)).toEqual(expected);
  });
});

describe("parseSheetCsv", () => {
  test("numbers rows like a spreadsheet, skips blank rows, pads short rows, drops trailing empties", () => {
    const text = ["Title,Date,Location,Custom", "A,2026-06-21", ",,,only custom", "", "B,2026-06-22,Here,x,,,", ""].join("\n");
    const result = parseSheetCsv(text);
    expect(result.ok).toBe(true);
    expect(result.columns).toEqual(["Title", "Date", "Location", "Custom"]);
    expect(result.fieldByColumn).toEqual(["title", "date", "location", null]);
    expect(result.rows).toEqual([
      { rowNumber: 2, cells: ["A", "2026-06-21", "", ""] },
      { rowNumber: 5, cells: ["B", "2026-06-22", "Here", "x"] },
    ]);
  });

  test("row numbers count records, so a quoted newline does not shift them", () => {
    const result = parseSheetCsv('Title,Date,Notes\nA,2026-06-21,"one\ntwo"\nB,2026-06-21,\n');
    expect(result.rows.map((row) => row.rowNumber)).toEqual([2, 3]);
  });

  test("a long row with non-empty cells beyond the header fails, listing row numbers", () => {
    const result = parseSheetCsv("Title,Date\nA,2026-06-21,extra\nB,2026-06-21,,\nC,2026-06-21,,x\n");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe("CSV row structure mismatch in 2 row(s): 2, 4");
    expect(result.blocking).toEqual([
      { type: "structure_mismatch", message: "CSV row structure mismatch in 2 row(s): 2, 4", rows: [2, 4] },
    ]);
  });

  test("more than 20 mismatched rows are summarised in the message but all listed in rows", () => {
    const lines = ["Title,Date", ...Array.from({ length: 22 }, (_, i) => `E${i},2026-06-21,x`)];
    const result = parseSheetCsv(lines.join("\n"));
    if (result.ok) throw new Error("expected failure");
    expect(result.error).toBe(
      "CSV row structure mismatch in 22 row(s): 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, … (+2 more)",
    );
    expect(result.blocking[0].rows).toHaveLength(22);
  });

  test.each([
    ["header only", "Title,Date\n"],
    ["only blank rows", "Title,Date\n,\n\n , \n"],
    ["only unmapped cells", "Title,Date,Custom\n,,x\n"],
  ])("%s → no non-empty data rows", (_name, text) => {
    const result = parseSheetCsv(text);
    if (result.ok) throw new Error("expected failure");
    expect(result.error).toBe("CSV contains no non-empty data rows");
  });

  test("every blocking issue is reported, joined in the error", () => {
    const result = parseSheetCsv("Name,Title,Location\nA,B,C,D\n");
    if (result.ok) throw new Error("expected failure");
    expect(result.blocking.map((issue) => issue.type)).toEqual(["missing_columns", "duplicate_columns", "structure_mismatch"]);
    expect(result.error).toBe(
      "Missing essential CSV columns: date; Duplicate CSV column mappings: Name, Title; CSV row structure mismatch in 1 row(s): 2",
    );
  });

  test("an empty file fails on both the header and the rows", () => {
    const result = parseSheetCsv("");
    if (result.ok) throw new Error("expected failure");
    expect(result.error).toBe("Missing essential CSV columns: title, date; CSV contains no non-empty data rows");
  });
});

describe("csvCell and toCsv", () => {
  test.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\rhere", '"cr\rhere"'],
    ["=SUM(A1:A2)", "=SUM(A1:A2)"],
    ["<b>x</b>", "<b>x</b>"],
    [null, ""],
    [undefined, ""],
    [12, "12"],
    [false, "false"],
  ])("%p → %p", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  test("every line ends with \\n", () => {
    expect(toCsv(["Title", "Notes"], [["A", "x,y"], [null, "z"]])).toBe('Title,Notes\nA,"x,y"\n,z\n');
  });

  test("what toCsv writes parses back to the same cells", () => {
    const rows = [["Soirée \"Éclat\"", "line 1\nline 2, still", "=1+1", "🇬🇧 <script>"]];
    expect(parseCsvRecords(toCsv(["A", "B", "C", "D"], rows))).toEqual([["A", "B", "C", "D"], ...rows]);
  });
});
