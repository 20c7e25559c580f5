// CSV for the insights exports: RFC 4180 quoting by papaparse, and formula neutralisation (a cell
// starting with = + - @, TAB or CR gets a leading ') so a spreadsheet never runs a cell as a
// formula. Lines end with \n. Rows are written in chunks into a stream, so a large export is never one string.

import Papa from "papaparse";

// papaparse's own `escapeFormulae: true` pattern ends in `.*$`, which misses a formula followed by
// a line break; this one looks at the first character only.
const FORMULA_START = /^[=+\-@\t\r]/;
const CHUNK_ROWS = 500;

/** One CSV line (no line end) of the given cells. */
export function csvLine(cells: readonly (string | number)[]): string {
  return Papa.unparse([cells.map((c) => String(c))], { escapeFormulae: FORMULA_START, newline: "\n", header: false });
}

/**
 * A text/csv body: the header line, then the rows of `pages` (an async sequence of row batches),
 * encoded chunk by chunk as the consumer reads.
 */
export function csvStream(header: readonly string[], pages: AsyncIterable<readonly (readonly (string | number)[])[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = pages[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${csvLine(header)}\n`));
        return;
      }
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      for (let i = 0; i < next.value.length; i += CHUNK_ROWS) {
        const text = next.value
          .slice(i, i + CHUNK_ROWS)
          .map((cells) => `${csvLine(cells)}\n`)
          .join("");
        controller.enqueue(encoder.encode(text));
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
