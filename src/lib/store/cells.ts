// Cell text as stored in row_data: values written by older tools may be JSON-encoded strings, and
// null becomes "". Shared by the store reads and the revision snapshots.

/** The text of one stored cell. */
export function cellValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const inner = JSON.parse(value);
      if (typeof inner === "string") return inner;
    } catch {}
  }
  return value;
}
