// Drafts: how the working sheet differs from the published revision (see docs/console.md,
// "Publishing" and "Drafts in the editor"). One comparison, `rowChange`, gives the Publishing card's
// review and count, the editor's summary and the editor's per-cell marks; the browser never
// compares anything itself.

import type { Db } from "../db/client.ts";
import { t } from "../i18n/index.ts";
import { readPublishedSheetKept, type PublishedSheet, type PublishedSheetDeps } from "../store/published.ts";
import { findStoreMeta, isBlankStoreRow, readStoreSheet, type StoreColumn, type StoredSheet } from "../store/store.ts";

/** How many changed rows the review lists in full (the counts cover every row). */
export const UNPUBLISHED_ROWS_LISTED = 200;

/** One row of the working sheet that differs from the published one. */
export interface UnpublishedRow {
  id: string;
  kind: "added" | "deleted" | "changed";
  title: string;
  eventKey: string;
  cells: { key: string; label: string; before: string; after: string }[];
}

/** The drafts: what publishing would change, and when the site was last published. */
export interface UnpublishedChanges {
  publishedAt: string | null;
  publishedBy: string | null;
  version: number;
  rowsAdded: number;
  rowsDeleted: number;
  rowsChanged: number;
  /** rowsAdded + rowsDeleted + rowsChanged: "N unpublished changes". */
  total: number;
  rows: UnpublishedRow[];
  truncated: boolean;
  /** The renames and removals publishing would make public, which it asks to confirm (publishReview). */
  review: PublishReview;
}

/** A row whose title changed while its Event Key was kept: saved nights and shared links would point at another event. */
export interface RenamedRow {
  id: string;
  eventKey: string;
  before: string;
  after: string;
}

/**
 * What a publish must have confirmed before it goes through (docs/console.md, "Publishing"):
 * titles changed under a kept Event Key and published rows removed, the first
 * UNPUBLISHED_ROWS_LISTED of each listed, the counts over all.
 */
export interface PublishReview {
  rowsRenamed: number;
  rowsRemoved: number;
  renamed: RenamedRow[];
  removed: { id: string; title: string; eventKey: string }[];
}

/** The renames (a published title changed, the Event Key kept) and removals among the changes. */
export function publishReview(changes: readonly UnpublishedRow[]): PublishReview {
  const renamed: RenamedRow[] = [];
  const removed: PublishReview["removed"] = [];
  for (const change of changes) {
    if (change.kind === "deleted") removed.push({ id: change.id, title: change.title, eventKey: change.eventKey });
    if (change.kind !== "changed" || change.cells.some((c) => c.key === "eventKey")) continue;
    const title = change.cells.find((c) => c.key === "title");
    if (title && title.before !== "") renamed.push({ id: change.id, eventKey: change.eventKey, before: title.before, after: title.after });
  }
  return { rowsRenamed: renamed.length, rowsRemoved: removed.length, renamed: renamed.slice(0, UNPUBLISHED_ROWS_LISTED), removed: removed.slice(0, UNPUBLISHED_ROWS_LISTED) };
}

/** True when publishing these changes needs the explicit confirmation. */
export function needsConfirmation(review: PublishReview): boolean {
  return review.rowsRenamed + review.rowsRemoved > 0;
}

/** The counts of a review as the card and the refusal say them: "3 events renamed, 1 removed". */
export function reviewCounts(review: PublishReview): string {
  const parts: string[] = [];
  if (review.rowsRenamed) parts.push(t("publishing.held.renamed", { count: review.rowsRenamed }));
  if (review.rowsRemoved) parts.push(t(review.rowsRenamed ? "publishing.held.removedAfter" : "publishing.held.removed", { count: review.rowsRemoved }));
  return parts.join(", ");
}

/** The published side of a comparison: each non-blank published row's values by id, and every column's label. */
interface PublishedSide {
  before: Map<string, Readonly<Record<string, string>>>;
  labels: Map<string, string>;
}

function publishedSide(published: PublishedSheet | undefined, workingColumns: readonly Pick<StoreColumn, "key" | "label">[]): PublishedSide {
  const labels = new Map<string, string>();
  for (const c of [...(published?.columns ?? []), ...workingColumns]) labels.set(c.key, c.label);
  const before = new Map((published?.rows ?? []).filter((r) => !isBlankStoreRow(r.values)).map((r) => [r.id, r.values]));
  return { before, labels };
}

/**
 * How one working row differs from the published sheet: "added" (no published row with its id),
 * "changed" with each differing cell, or undefined when it is the same or blank (a blank working
 * row is no change). The one rule both the review and the editor's marks follow.
 */
function rowChange(row: { id: string; values: Readonly<Record<string, string>> }, side: PublishedSide): UnpublishedRow | undefined {
  if (isBlankStoreRow(row.values)) return undefined;
  const old = side.before.get(row.id);
  const cells: UnpublishedRow["cells"] = [];
  for (const [key, label] of side.labels) {
    const a = old?.[key] ?? "";
    const b = row.values[key] ?? "";
    if (a !== b) cells.push({ key, label, before: a, after: b });
  }
  if (old && !cells.length) return undefined;
  return { id: row.id, kind: old ? "changed" : "added", title: row.values.title ?? "", eventKey: row.values.eventKey ?? "", cells };
}

/** Every change of the working sheet against the published one, in sheet order, deleted rows last. */
export function allChanges(working: Pick<StoredSheet, "columns" | "rows"> | undefined, published: PublishedSheet | undefined): UnpublishedRow[] {
  const side = publishedSide(published, working?.columns ?? []);
  const changes: UnpublishedRow[] = [];
  const seen = new Set<string>();
  for (const row of working?.rows ?? []) {
    if (!isBlankStoreRow(row.values)) seen.add(row.id);
    const change = rowChange(row, side);
    if (change) changes.push(change);
  }
  for (const [id, values] of side.before) {
    if (!seen.has(id)) changes.push({ id, kind: "deleted", title: values.title ?? "", eventKey: values.eventKey ?? "", cells: [] });
  }
  return changes;
}

/** The comparison's summary over its changes: counts, and the first rows listed. */
function summarise(changes: readonly UnpublishedRow[], published: PublishedSheet | undefined): UnpublishedChanges {
  const count = (kind: UnpublishedRow["kind"]) => changes.filter((c) => c.kind === kind).length;
  const rows = changes.slice(0, UNPUBLISHED_ROWS_LISTED);
  return {
    publishedAt: published?.publishedAt.toISOString() ?? null,
    publishedBy: published?.publishedBy ?? null,
    version: published?.version ?? 0,
    rowsAdded: count("added"),
    rowsDeleted: count("deleted"),
    rowsChanged: count("changed"),
    total: changes.length,
    rows,
    truncated: changes.length > rows.length,
    review: publishReview(changes),
  };
}

/** One comparison per state of the store: its revision and the published stamp name it. */
interface Comparison {
  key: string;
  result: Promise<{ changes: UnpublishedRow[]; published: PublishedSheet | undefined }>;
}

/** The comparison last made: one slot per process, made by `buildDeps`. */
export interface KeptComparison {
  last?: Comparison;
}

/** What reads the drafts: the database, the kept published sheet and the kept comparison. */
export interface DraftDeps extends PublishedSheetDeps {
  keptDraftComparison: KeptComparison;
}

/**
 * Every change against the published sheet. The Publishing card and the editor both ask after each
 * save: the comparison is kept for the store revision and published stamp it was made at (read
 * first, so the rows read after are at least that new), and a second caller of the same state,
 * even while the first is still reading, shares it. Every write of the store moves its revision.
 */
async function compareNow(deps: DraftDeps): Promise<{ changes: UnpublishedRow[]; published: PublishedSheet | undefined }> {
  const { db, keptDraftComparison: kept } = deps;
  const [meta, published] = await Promise.all([findStoreMeta(db), readPublishedSheetKept(deps)]);
  // Without a published sheet there is no stamp to tell two states apart: compare every time.
  const key = meta && published ? `${meta.revision}:${meta.updatedAt.getTime()}:${published.stamp}` : "";
  if (key && kept.last?.key === key) return kept.last.result;
  const result = readStoreSheet(db).then((working) => ({ changes: allChanges(working, published), published }));
  if (key) {
    kept.last = { key, result };
    result.catch(() => {
      if (kept.last?.result === result) kept.last = undefined;
    });
  }
  return result;
}

/** Compares the working sheet with the published one, row by row id (blank working rows are not changes). */
export async function readUnpublishedChanges(deps: DraftDeps): Promise<UnpublishedChanges> {
  const { changes, published } = await compareNow(deps);
  return summarise(changes, published);
}

/** A deleted row as the editor lists it. */
export interface DeletedDraft {
  id: string;
  title: string;
  eventKey: string;
}

/** The editor's summary of the drafts: the counts, when the site was last published, and the deleted rows (it cannot mark them in the grid). */
export interface DraftSummary {
  publishedAt: string | null;
  publishedBy: string | null;
  rowsAdded: number;
  rowsChanged: number;
  rowsDeleted: number;
  total: number;
  deleted: DeletedDraft[];
}

/** The counts and the deleted rows (the first UNPUBLISHED_ROWS_LISTED) for the editor. */
export async function readDraftSummary(deps: DraftDeps): Promise<DraftSummary> {
  const { changes, published } = await compareNow(deps);
  const summary = summarise(changes, published);
  const deleted = changes.filter((c) => c.kind === "deleted").slice(0, UNPUBLISHED_ROWS_LISTED);
  return {
    publishedAt: summary.publishedAt,
    publishedBy: summary.publishedBy,
    rowsAdded: summary.rowsAdded,
    rowsChanged: summary.rowsChanged,
    rowsDeleted: summary.rowsDeleted,
    total: summary.total,
    deleted: deleted.map((c) => ({ id: c.id, title: c.title, eventKey: c.eventKey })),
  };
}

/** The draft mark of one shown row: added, or the keys of its cells that differ from the published sheet with their published values. */
export type DraftMark = { added: true } | { cells: Record<string, string> };
/** Draft marks by row id; a row with no draft has none. */
export type DraftMarks = Record<string, DraftMark>;

/**
 * The draft marks of the rows the editor shows (a window, or the rows a save wrote): the same
 * comparison as the review, over these rows only, against the kept published sheet, so it never
 * reads the whole working sheet.
 */
export async function readDraftMarks(deps: PublishedSheetDeps, columns: readonly Pick<StoreColumn, "key" | "label">[], rows: readonly { id: string; values: Readonly<Record<string, string>> }[]): Promise<DraftMarks> {
  if (!rows.length) return {};
  const side = publishedSide(await readPublishedSheetKept(deps), columns);
  const marks: DraftMarks = {};
  for (const row of rows) {
    const change = rowChange(row, side);
    if (!change) continue;
    marks[row.id] = change.kind === "added" ? { added: true } : { cells: Object.fromEntries(change.cells.map((c) => [c.key, c.before])) };
  }
  return marks;
}
