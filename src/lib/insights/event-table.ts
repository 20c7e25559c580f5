// The Event Performance table's view of the per-event figures: search by name or key, sort by any
// column, 10/25/50/100 rows.

import type { EventInsights } from "./metrics.ts";

export const EVENT_TABLE_ROWS = [10, 25, 50, 100] as const;
export const EVENT_SORT_KEYS = ["eventName", "clickCount", "dedupedViewCount", "outboundClickCount", "calendarSyncCount", "uniqueSessionCount", "conversionRate"] as const;
export type EventSortKey = (typeof EVENT_SORT_KEYS)[number];

export interface EventTableQuery {
  rows: number;
  search: string;
  sort: EventSortKey;
  dir: "asc" | "desc";
}

/** Reads the table's query values; anything unknown falls back to the defaults (10 rows, by views, descending). */
export function readEventTableQuery(query: Record<string, unknown>): EventTableQuery {
  const rows = Number(query.rows);
  const sort = String(query.sort ?? "");
  return {
    rows: (EVENT_TABLE_ROWS as readonly number[]).includes(rows) ? rows : 10,
    search: typeof query.q === "string" ? query.q.trim().slice(0, 120) : "",
    sort: (EVENT_SORT_KEYS as readonly string[]).includes(sort) ? (sort as EventSortKey) : "clickCount",
    dir: query.dir === "asc" ? "asc" : "desc",
  };
}

/** The rows to show and how many matched the search. */
export function eventTableRows(events: readonly EventInsights[], q: EventTableQuery): { rows: EventInsights[]; matched: number } {
  const needle = q.search.toLowerCase();
  const matched = needle ? events.filter((e) => e.eventName.toLowerCase().includes(needle) || e.eventKey.toLowerCase().includes(needle)) : [...events];
  const sign = q.dir === "asc" ? 1 : -1;
  // Stable sort: ties keep the dashboard's order (views, outbound, calendar).
  const sorted = matched
    .map((e, i) => ({ e, i }))
    .sort((a, b) => {
      const x = a.e[q.sort];
      const y = b.e[q.sort];
      const c = typeof x === "string" ? x.localeCompare(y as string) : (x as number) - (y as number);
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((s) => s.e);
  return { rows: sorted.slice(0, q.rows), matched: matched.length };
}
