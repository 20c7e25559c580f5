// What the sheet's own rules read in each cell of the rows the editor shows (see docs/console.md,
// "Readings and warnings"): the date, times and price as the site will show them, and the sheet
// rules' warning where a cell is not read as written. The server sends these with every window and every
// autosave answer, so the browser never carries a second copy of the rules.

import { currentLocale, t } from "../i18n/index.ts";
import { buildEventsFromRows } from "../sheet/sheet.ts";
import { readTimeCell } from "../sheet/times.ts";
import { storeRowFields } from "../store/store.ts";

/** One cell's note: how the rules read it, or why they could not read it as written. */
export interface CellNote {
  reading?: string;
  warning?: string;
}

/** Notes by row id, then by column key; cells with nothing to say are left out. */
export type SheetNotes = Record<string, Record<string, CellNote>>;

const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();
const PRICE_FORMATS = new Map<string, Intl.NumberFormat>();

function dateReading(iso: string): string {
  const locale = currentLocale();
  let format = DATE_FORMATS.get(locale);
  if (!format) DATE_FORMATS.set(locale, (format = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })));
  return format.format(new Date(`${iso}T12:00:00Z`));
}

function priceReading(value: number): string {
  if (value === 0) return t("common.free");
  const locale = currentLocale();
  let format = PRICE_FORMATS.get(locale);
  if (!format) PRICE_FORMATS.set(locale, (format = new Intl.NumberFormat(locale, { style: "currency", currency: "EUR", minimumFractionDigits: 0, maximumFractionDigits: 2 })));
  return format.format(value);
}

/**
 * The notes of these rows (values by column key; core columns are read by their field rules, other
 * columns have none). The rows are read together, as one sheet: a date without a year takes the
 * year the rows' other dates give.
 */
export function readSheetNotes(rows: readonly { id: string; values: Readonly<Record<string, string>> }[], now: Date): SheetNotes {
  const notes: SheetNotes = {};
  if (!rows.length) return notes;
  const fields = rows.map((r) => storeRowFields(r.values));
  const built = buildEventsFromRows(
    fields.map((f, i) => ({ rowNumber: i, fields: f })),
    { now },
  );
  const note = (index: number, key: string): CellNote => {
    const id = rows[index].id;
    notes[id] ??= {};
    return (notes[id][key] ??= {});
  };
  // The first event of each row carries what its cells were read as.
  const firstEvent = new Map<string, (typeof built.events)[number]>();
  for (const event of built.events) if (event.occurrenceIndex === 1 && !firstEvent.has(event.eventKey)) firstEvent.set(event.eventKey, event);
  fields.forEach((f, i) => {
    const event = firstEvent.get(built.rowKeys[i]);
    if (!event) return;
    if (f.date !== "" && event.date) note(i, "date").reading = dateReading(event.date);
    if (f.dateTo !== "" && event.dateRangeEnd && event.occurrenceCount > 1) note(i, "dateTo").reading = dateReading(event.dateRangeEnd);
    for (const key of ["startTime", "endTime"] as const) {
      const time = readTimeCell(f[key]);
      if (time.kind === "valid") note(i, key).reading = time.value;
    }
    if (f.price !== "" && event.priceValue !== null) note(i, "price").reading = priceReading(event.priceValue);
  });
  // The warnings are the sheet rules' own (lib/sheet/sheet.ts): the upload check and the import
  // preview report the same ones, so a cell flagged here is flagged there with the same words.
  for (const warning of built.warnings) {
    // Keys are assigned by the store on save: a key warning here only says a row is not saved yet.
    if (!warning.field || warning.field === "eventKey") continue;
    const cell = note(warning.row, warning.field);
    cell.warning = cell.warning ? `${cell.warning}; ${warning.message}` : warning.message;
  }
  return notes;
}
