// The sheet editor's clipboard formats (static/sheet-editor/clipboard.js): tab-separated text as
// spreadsheets write it, HTML tables from Google Sheets, Excel and LibreOffice, and what a copy
// puts on the clipboard. The HTML is parsed by htmlparser2 behind the few DOM members the module
// reads, standing in for the browser's inert DOMParser document.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseDocument } from "htmlparser2";
import { cellText, parseHtmlTable, parseTsv, tableGrid, textBlock, toHtmlTable, toTsv, tsvCell, withoutStyles } from "../../../static/sheet-editor/clipboard.js";

type Parsed = { type: string; name?: string; data?: string; attribs?: Record<string, string>; children?: Parsed[]; next?: Parsed | null };

/** A node as the DOM shows it: element tag names upper-cased, text as nodeValue. */
function domNode(node: Parsed): any {
  const element = node.type === "tag" || node.type === "script" || node.type === "style";
  return {
    nodeType: element ? 1 : node.type === "text" ? 3 : 8,
    nodeValue: node.type === "text" ? node.data! : null,
    tagName: element ? node.name!.toUpperCase() : undefined,
    get firstChild() {
      return node.children?.length ? domNode(node.children[0]!) : null;
    },
    get nextSibling() {
      return node.next ? domNode(node.next) : null;
    },
    getAttribute: (name: string) => node.attribs?.[name] ?? null,
    node,
  };
}

/** The elements named `name` under `node`, not looking inside nested tables. */
function below(node: Parsed, name: string, out: Parsed[] = []): Parsed[] {
  for (const child of node.children ?? []) {
    if (child.name === name) out.push(child);
    else if (child.name !== "table") below(child, name, out);
  }
  return out;
}

function domTable(table: Parsed) {
  return { rows: below(table, "tr").map((tr) => ({ cells: (tr.children ?? []).filter((c) => c.name === "td" || c.name === "th").map(domNode) })) };
}

function firstTable(html: string) {
  const find = (node: Parsed): Parsed | undefined => (node.name === "table" ? node : (node.children ?? []).map(find).find(Boolean));
  return find(parseDocument(html) as unknown as Parsed);
}

const Original = (globalThis as any).DOMParser;
beforeAll(() => {
  (globalThis as any).DOMParser = class {
    parseFromString(html: string) {
      const table = firstTable(html);
      return { querySelector: (selector: string) => (selector === "table" && table ? domTable(table) : null) };
    }
  };
});
afterAll(() => {
  (globalThis as any).DOMParser = Original;
});

describe("tab-separated text", () => {
  test.each([
    ["one cell", "a", [["a"]]],
    ["a row", "a\tb\tc", [["a", "b", "c"]]],
    ["rows", "a\tb\nc\td", [["a", "b"], ["c", "d"]]],
    ["one trailing line break is not a row", "a\tb\n", [["a", "b"]]],
    ["a second one is an empty row", "a\n\n", [["a"], [""]]],
    ["Windows and old Mac line breaks", "a\r\nb\rc", [["a"], ["b"], ["c"]]],
    ["empty cells keep their place", "\ta\t\n\t\t", [["", "a", ""], ["", "", ""]]],
    ["a quoted cell holds a tab", '"a\tb"\tc', [["a\tb", "c"]]],
    ["a quoted cell holds line breaks", '"line one\nline two"\tnext\nrow', [["line one\nline two", "next"], ["row"]]],
    ["doubled quotes are one quote", '"say ""hi"""\tx', [['say "hi"', "x"]]],
    ["a quote inside a cell is kept as it is", 'a "b" c\td', [['a "b" c', "d"]]],
    ["a quote that does not end the cell is text", '"a" b\tc', [['"a" b', "c"]]],
    ["an unclosed quote is text", '"abc\tdef', [['"abc', "def"]]],
    ["a quoted last cell", 'x\t"y\nz"', [["x", "y\nz"]]],
    ["nothing", "", [[""]]],
  ])("%s", (_name, text, rows) => {
    expect(parseTsv(text)).toEqual(rows);
  });

  test("what a copy writes reads back the same", () => {
    const values = [
      ["plain", "with\ttab", 'with "quotes"'],
      ["line one\nline two", "", "é € 𝄞"],
    ];
    expect(toTsv(values)).toBe('plain\t"with\ttab"\t"with ""quotes"""\n"line one\nline two"\t\té € 𝄞');
    expect(parseTsv(toTsv(values))).toEqual(values);
  });

  test.each([
    ["plain", "plain"],
    ["a\tb", '"a\tb"'],
    ["a\nb", '"a\nb"'],
    ['say "x"', '"say ""x"""'],
  ])("one cell %j is written %j", (value, written) => {
    expect(tsvCell(value)).toBe(written);
  });

  test.each([
    ["one value", "jazz", { single: true, block: [["jazz"]] }],
    ["one value and its line break", "jazz\n", { single: true, block: [["jazz"]] }],
    ["one value and a Windows line break", "jazz\r\n", { single: true, block: [["jazz"]] }],
    ["a row", "a\tb", { single: false, block: [["a", "b"]] }],
    ["a column", "a\nb\n", { single: false, block: [["a"], ["b"]] }],
  ])("plain text: %s", (_name, text, block) => {
    expect(textBlock(text)).toEqual(block);
  });
});

describe("HTML tables", () => {
  // What Google Sheets puts on the clipboard for two rows of two cells, the second cell holding a
  // line break, with its styles, colgroup, tbody and data attributes.
  const GOOGLE_SHEETS =
    '<meta charset="utf-8"><google-sheets-html-origin><style type="text/css"><!--td {border: 1px solid #cccccc;}br {mso-data-placement:same-cell;}--></style>' +
    '<table xmlns="http://www.w3.org/1999/xhtml" cellspacing="0" cellpadding="0" dir="ltr" border="1" style="table-layout:fixed;font-size:10pt;font-family:Arial;width:0px;border-collapse:collapse;border:none" data-sheets-root="1">' +
    '<colgroup><col width="100"/><col width="100"/></colgroup><tbody>' +
    '<tr style="height:21px;"><td style="overflow:hidden;padding:2px 3px 2px 3px;vertical-align:bottom;">Jazz   night</td><td style="overflow:hidden;padding:2px 3px 2px 3px;vertical-align:bottom;" data-sheets-value="{&quot;1&quot;:2,&quot;2&quot;:&quot;Line one\\nLine two&quot;}">Line one<br/>Line two</td></tr>' +
    '<tr style="height:21px;"><td style="overflow:hidden;padding:2px 3px 2px 3px;vertical-align:bottom;">11</td><td style="overflow:hidden;padding:2px 3px 2px 3px;vertical-align:bottom;"></td></tr>' +
    "</tbody></table>";

  test("a Google Sheets block: rows of cells, white space as one space, <br> as a line break, empty cells kept", () => {
    expect(parseHtmlTable(GOOGLE_SHEETS)).toEqual([
      ["Jazz night", "Line one\nLine two"],
      ["11", ""],
    ]);
  });

  test("styles are dropped before parsing (the page's CSP refuses them even in an inert document)", () => {
    const cleaned = withoutStyles(GOOGLE_SHEETS);
    expect(cleaned).not.toContain("<style");
    expect(cleaned).not.toMatch(/\sstyle\s*=/);
    expect(cleaned).toContain('data-sheets-value="');
    expect(withoutStyles(`<td STYLE='color:red' class="x">a</td><td style=color:red>b</td>`)).toBe(`<td class="x">a</td><td>b</td>`);
  });

  test("an Excel block: paragraphs as lines, <th> cells, a header row", () => {
    const html = "<html><body><table><thead><tr><th>Title</th><th>Notes</th></tr></thead><tbody><tr><td><p>First</p><p>Second</p></td><td>a<div>b</div></td></tr></tbody></table></body></html>";
    expect(parseHtmlTable(html)).toEqual([
      ["Title", "Notes"],
      ["First\nSecond", "a\nb"],
    ]);
  });

  test("spanning cells: a column span is its text then empty cells, a row span leaves empty cells under it", () => {
    const html = '<table><tr><td colspan="2">wide</td><td rowspan="2">tall</td></tr><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>';
    expect(parseHtmlTable(html)).toEqual([
      ["wide", "", "tall"],
      ["a", "b", ""],
      ["c", "d", "e"],
    ]);
  });

  test("a row span in the first column shifts the cells of the rows under it", () => {
    const html = '<table><tr><td rowspan="3">x</td><td>1</td></tr><tr><td>2</td></tr><tr><td>3</td></tr></table>';
    expect(parseHtmlTable(html)).toEqual([
      ["x", "1"],
      ["", "2"],
      ["", "3"],
    ]);
  });

  test("scripts and styles inside a cell are not text; lines are trimmed", () => {
    const html = "<table><tr><td>  a <script>alert(1)</script><br>  b  </td></tr></table>";
    expect(parseHtmlTable(html)).toEqual([["a\nb"]]);
  });

  test("no table is null (the plain text is pasted instead)", () => {
    expect(parseHtmlTable("<p>just text</p>")).toBeNull();
    expect(tableGrid({ rows: [] })).toBeNull();
  });

  test("cellText reads a cell's text as a spreadsheet shows it", () => {
    const cell = domNode(below(firstTable("<table><tr><td><ul><li>one</li><li>two</li></ul></td></tr></table>")!, "td")[0]!);
    expect(cellText(cell)).toBe("one\ntwo");
  });

  test("what a copy writes as HTML reads back the same, escaped, with <br> for line breaks", () => {
    const values = [
      ["<b>bold</b> & co", 'say "x"'],
      ["line one\nline two", ""],
    ];
    const html = toHtmlTable(values);
    expect(html).toBe('<table><tr><td>&lt;b&gt;bold&lt;/b&gt; &amp; co</td><td>say &quot;x&quot;</td></tr><tr><td>line one<br>line two</td><td></td></tr></table>');
    expect(parseHtmlTable(html)).toEqual(values);
  });
});
