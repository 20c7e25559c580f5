// The sheet editor's clipboard formats: tab-separated text and HTML tables as spreadsheets write
// them. Nothing here touches the page (parseHtmlTable asks the browser's DOMParser for an inert
// document), so it is unit-tested (test/static/sheet-editor/clipboard.test.ts).

/** The parts of a DOM node the cell reader looks at (an HTML table cell's contents). */
/** @typedef {{ nodeType: number, nodeValue: string | null, firstChild: ClipboardNode | null, nextSibling: ClipboardNode | null }} ClipboardNode */
/** @typedef {ClipboardNode & { tagName: string, getAttribute(name: string): string | null }} ClipboardElement */
/** @typedef {{ cells: ArrayLike<ClipboardElement> }} ClipboardRow */
/** @typedef {{ rows: ArrayLike<ClipboardRow> }} ClipboardTable */

// Tab-separated text as spreadsheets write it: a cell holding a tab, a line break or a quote is
// quoted, with quotes doubled. One trailing line break is not a row.
/**
 * @param {string} text
 * @returns {string[][]}
 */
export function parseTsv(text) {
  text = text.replace(/\r\n?/g, "\n");
  if (text.slice(-1) === "\n") text = text.slice(0, -1);
  /** @type {string[][]} */
  var rows = [];
  /** @type {string[]} */
  var row = [];
  var cell = "";
  var i = 0;
  var start = true;
  while (i < text.length) {
    var ch = text[i];
    if (start && ch === '"') {
      // A quoted cell runs to the quote not doubled; what follows up to the separator is kept.
      var j = i + 1;
      var quoted = "";
      while (j < text.length) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') { quoted += '"'; j += 2; continue; }
          break;
        }
        quoted += text[j++];
      }
      if (j < text.length && (j + 1 === text.length || text[j + 1] === "\t" || text[j + 1] === "\n")) {
        cell = quoted;
        i = j + 1;
        start = false;
        continue;
      }
    }
    start = false;
    if (ch === "\t") { row.push(cell); cell = ""; start = true; }
    else if (ch === "\n") { row.push(cell); rows.push(row); row = []; cell = ""; start = true; }
    else cell += ch;
    i++;
  }
  row.push(cell);
  rows.push(row);
  return rows;
}

/**
 * One cell as tab-separated text writes it: quoted (quotes doubled) when it holds a tab, a line
 * break or a quote.
 * @param {string} value
 * @returns {string}
 */
export function tsvCell(value) {
  return /[\t\n"]/.test(value) ? '"' + value.replace(/"/g, '""') + '"' : value;
}

// The text of an HTML table cell as a spreadsheet shows it: line breaks and paragraphs become
// new lines, other white space one space.
/**
 * @param {ClipboardNode} node
 * @returns {string}
 */
export function cellText(node) {
  var out = "";
  (/** @param {ClipboardNode} n */ function walk(n) {
    for (var c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += (c.nodeValue || "").replace(/\s+/g, " ");
      else if (c.nodeType === 1) {
        var tag = /** @type {ClipboardElement} */ (c).tagName;
        if (tag === "BR") { out += "\n"; continue; }
        if (tag === "STYLE" || tag === "SCRIPT") continue;
        var block = tag === "P" || tag === "DIV" || tag === "LI";
        if (block && out && out.slice(-1) !== "\n") out += "\n";
        walk(c);
      }
    }
  })(node);
  return out.split("\n").map(function (l) { return l.trim(); }).join("\n").replace(/^\n+|\n+$/g, "");
}

// The first table of an HTML clipboard (Google Sheets, Excel, LibreOffice); null when there is none.
// DOMParser builds an inert document: nothing in it runs or loads.
/**
 * @param {string} html
 * @returns {string[][] | null}
 */
export function parseHtmlTable(html) {
  var doc = new DOMParser().parseFromString(withoutStyles(html), "text/html");
  var table = doc.querySelector("table");
  if (!table) return null;
  return tableGrid(table);
}

/**
 * A clipboard's HTML without its <style> elements and style attributes: the page's CSP refuses
 * inline styles even in an inert document, so they are dropped before it is parsed.
 * @param {string} html
 * @returns {string}
 */
export function withoutStyles(html) {
  return html.replace(/<style[\s\S]*?<\/style>/gi, "").replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "");
}

/**
 * A table's cells as rows of text, as a spreadsheet lays them out: a cell spanning columns is its
 * text then empty cells, a cell spanning rows leaves empty cells under it; null when it has no row.
 * @param {ClipboardTable} table
 * @returns {string[][] | null}
 */
export function tableGrid(table) {
  /** @type {string[][]} */
  var rows = [];
  /** @type {{ left: number, from: number }[]} */
  var spans = [];
  Array.prototype.forEach.call(table.rows, /** @param {ClipboardRow} tr @param {number} r */ function (tr, r) {
    /** @type {string[]} */
    var row = [];
    var c = 0;
    Array.prototype.forEach.call(tr.cells, /** @param {ClipboardElement} td */ function (td) {
      while (spans[c] && spans[c].left > 0 && spans[c].from < r) { row[c] = ""; spans[c].left--; c++; }
      var span = Math.max(1, Number(td.getAttribute("colspan")) || 1);
      var down = Math.max(1, Number(td.getAttribute("rowspan")) || 1);
      for (var k = 0; k < span; k++) {
        row[c] = k === 0 ? cellText(td) : "";
        if (down > 1) spans[c] = { left: down - 1, from: r };
        c++;
      }
    });
    while (spans[c] && spans[c].left > 0 && spans[c].from < r) { row[c] = ""; spans[c].left--; c++; }
    rows.push(row);
  });
  return rows.length ? rows : null;
}

/**
 * Text made safe inside HTML markup.
 * @param {string} text
 * @returns {string}
 */
export function escapeHtml(text) {
  return text.replace(/[&<>"]/g, function (c) { return /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]; });
}

/**
 * Rows of values as tab-separated text, for the clipboard's text/plain.
 * @param {readonly (readonly string[])[]} values
 * @returns {string}
 */
export function toTsv(values) {
  return values.map(function (row) { return row.map(tsvCell).join("\t"); }).join("\n");
}

/**
 * Rows of values as an HTML table (line breaks as <br>), for the clipboard's text/html.
 * @param {readonly (readonly string[])[]} values
 * @returns {string}
 */
export function toHtmlTable(values) {
  var html = "<table>";
  values.forEach(function (row) {
    html += "<tr>";
    row.forEach(function (v) { html += "<td>" + escapeHtml(v).replace(/\n/g, "<br>") + "</td>"; });
    html += "</tr>";
  });
  return html + "</table>";
}

/**
 * What plain clipboard text pastes: one value (no tab or line break but one at the end, which is
 * dropped) or a block of tab-separated rows.
 * @param {string} text
 * @returns {{ single: boolean, block: string[][] }}
 */
export function textBlock(text) {
  var single = !/[\t\n]/.test(text.replace(/\r?\n$/, ""));
  return { single: single, block: single ? [[text.replace(/\r?\n$/, "")]] : parseTsv(text) };
}

