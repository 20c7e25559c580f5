// Event store tables: the sheet (columns + rows + meta), its revisions and its backups (see
// docs/store-and-backups.md).

import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Sheet columns: the 20 core fields plus admin-added custom columns, in display order. */
export const eventStoreColumns = pgTable("event_store_columns", {
  key: text("key").primaryKey(),
  label: text("label").notNull(),
  isCore: boolean("is_core").notNull().default(false),
  isRequired: boolean("is_required").notNull().default(false),
  displayOrder: integer("display_order").notNull(),
});

/**
 * Sheet rows in display_order. The id is stable for the life of the row (kept across saves), so
 * autosave edits, conflicts and revision diffs can name it. `createdRevision` is the store
 * revision that inserted the row, `revision` the last one that changed any of its cells, and
 * `cellRevisions` the revision of each cell changed after the row was created (a cell absent from
 * it still has the row's created revision): a write based on an older revision conflicts only
 * where the cells it touches changed since.
 */
export const eventStoreRows = pgTable(
  "event_store_rows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    displayOrder: integer("display_order").notNull(),
    rowData: jsonb("row_data").$type<Record<string, string>>().notNull(),
    createdRevision: bigint("created_revision", { mode: "number" }).notNull().default(0),
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    cellRevisions: jsonb("cell_revisions").$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index("event_store_rows_order_idx").on(t.displayOrder)],
);

/** Single-row metadata of the store (id is always 1). */
export const eventStoreMeta = pgTable("event_store_meta", {
  id: integer("id").primaryKey().default(1),
  rowCount: integer("row_count").notNull().default(0),
  revision: bigint("revision", { mode: "number" }).notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by").notNull().default("system"),
  origin: text("origin").notNull().default("manual"),
  checksum: text("checksum").notNull().default(""),
});

/**
 * Store revisions (newest 100 kept, plus the older ones the oldest kept needs): a change summary
 * and the sheet as it was after the write. `sheet` is a full snapshot (JSON: columns as [key,
 * label], rows as [id, cells by key], in display order) taken by full saves and publishes;
 * `changes` lists the partial writes (autosave steps) applied after it, or after the state of the
 * revision whose `storeRevision` is this one's `baseRevision` when `sheet` is null. `csv` is the
 * full CSV of revisions recorded before snapshots and steps existed.
 */
export const eventStoreRevisions = pgTable(
  "event_store_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    trigger: text("trigger").notNull(),
    actor: text("actor").notNull().default("system"),
    rowCount: integer("row_count").notNull(),
    columnCount: integer("column_count").notNull(),
    rowsAdded: integer("rows_added").notNull().default(0),
    rowsDeleted: integer("rows_deleted").notNull().default(0),
    rowsChanged: integer("rows_changed").notNull().default(0),
    changedColumns: jsonb("changed_columns").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    csv: text("csv"),
    sheet: text("sheet"),
    changes: jsonb("changes").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    baseRevision: bigint("base_revision", { mode: "number" }),
    storeRevision: bigint("store_revision", { mode: "number" }),
  },
  (t) => [index("event_store_revisions_created_idx").on(t.createdAt.desc()), index("event_store_revisions_store_revision_idx").on(t.storeRevision)],
);

/** Snapshots of the store and both placement schedules (newest 30 kept). */
export const eventStoreBackups = pgTable(
  "event_store_backups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: text("created_by").notNull(),
    trigger: text("trigger").notNull(),
    rowCount: integer("row_count").notNull(),
    featuredEntryCount: integer("featured_entry_count").notNull().default(0),
    promotedEntryCount: integer("promoted_entry_count").notNull().default(0),
    storeUpdatedAt: timestamp("store_updated_at", { withTimezone: true }),
    storeChecksum: text("store_checksum"),
    csvContent: text("csv_content").notNull(),
    featuredEntries: jsonb("featured_entries").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    promotedEntries: jsonb("promoted_entries").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [index("event_store_backups_created_idx").on(t.createdAt.desc(), t.id.desc())],
);

/**
 * The published revision (single row, id 1): the sheet visitors see, as it was when last
 * published. `sheet` is JSON text like a revision snapshot (columns as [key, label], rows as [id,
 * cells by key]); `stamp` is new on every publish; `rowStates` is JSON text of each row id's [first published (ms or 0 when
 * unknown), date/time/venue changed (ms or 0), sequence]. `version` rises with every publish, so
 * readers can keep what they built from one version. See docs/store-and-backups.md, "Published
 * revision".
 */
export const eventStorePublished = pgTable("event_store_published", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull(),
  /** A random id per publish: readers compare it, so a table emptied and refilled never looks unchanged. */
  stamp: uuid("stamp").notNull().defaultRandom(),
  storeRevision: bigint("store_revision", { mode: "number" }).notNull(),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
  publishedBy: text("published_by").notNull(),
  trigger: text("trigger").notNull(),
  rowCount: integer("row_count").notNull(),
  sheet: text("sheet").notNull(),
  rowStates: text("row_states").notNull().default("{}"),
});

/**
 * The published sheet of an edition that is over, kept when the team starts the next one (see
 * docs/editions.md, "Rollover"): one row per year, written once and never changed. `sheet` and
 * `rowStates` are the published revision's own JSON texts as they were at the rollover, so the
 * archive shows exactly what visitors saw.
 */
export const editionArchives = pgTable("edition_archives", {
  year: integer("year").primaryKey(),
  archivedAt: timestamp("archived_at", { withTimezone: true }).notNull(),
  archivedBy: text("archived_by").notNull(),
  rowCount: integer("row_count").notNull(),
  sheet: text("sheet").notNull(),
  rowStates: text("row_states").notNull().default("{}"),
});
