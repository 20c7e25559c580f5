// Reads the event store as a plain table (column labels and rows of cells), for assertions.

import type { StoredSheet } from "../../src/lib/store/store.ts";

/** The stored sheet as headers (column labels in display order) and rows of cells. */
export function storedTable(stored: Pick<StoredSheet, "columns" | "rows">): { headers: string[]; rows: string[][] } {
  return { headers: stored.columns.map((c) => c.label), rows: stored.rows.map((r) => stored.columns.map((c) => r.values[c.key] ?? "")) };
}
