// Edition archives (see docs/editions.md, "Rollover"): when the team starts the next edition, the
// published sheet of the one that is over is copied, as it was, into edition_archives. An archive is
// written once per year and never changed: the archive page, share links to past events and the
// rollover's own checks read it.

import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { editionArchives, eventStorePublished } from "../db/schema/index.ts";
import { parsePublishedTexts, type PublishedSheet } from "./published.ts";

/** An archived edition's published sheet and when it was archived. */
export interface ArchivedSheet extends Pick<PublishedSheet, "columns" | "rows" | "states"> {
  year: number;
  archivedAt: Date;
  archivedBy: string;
  rowCount: number;
}

/** A line of the list of archives. */
export interface ArchiveSummary {
  year: number;
  archivedAt: Date;
  rowCount: number;
}

/**
 * Copies the published sheet, as it is inside the caller's transaction, into the archive of
 * `year`. False when that year is archived already (nothing is written then) or nothing was
 * ever published.
 */
export async function archivePublishedSheet(tx: Db, year: number, options: { actor: string; now: Date }): Promise<{ archived: true; rowCount: number } | { archived: false; why: "exists" | "nothing_published" }> {
  const [published] = await tx.select({ sheet: eventStorePublished.sheet, rowStates: eventStorePublished.rowStates, rowCount: eventStorePublished.rowCount }).from(eventStorePublished).where(eq(eventStorePublished.id, 1)).limit(1);
  if (!published) return { archived: false, why: "nothing_published" };
  const inserted = await tx
    .insert(editionArchives)
    .values({ year, archivedAt: options.now, archivedBy: options.actor, rowCount: published.rowCount, sheet: published.sheet, rowStates: published.rowStates })
    .onConflictDoNothing({ target: editionArchives.year })
    .returning({ year: editionArchives.year });
  return inserted.length === 1 ? { archived: true, rowCount: published.rowCount } : { archived: false, why: "exists" };
}

/** The archive of `year`, or undefined when that edition was never archived. */
export async function readEditionArchive(db: Db, year: number): Promise<ArchivedSheet | undefined> {
  const [row] = await db.select().from(editionArchives).where(eq(editionArchives.year, year)).limit(1);
  if (!row) return undefined;
  return { year: row.year, archivedAt: row.archivedAt, archivedBy: row.archivedBy, rowCount: row.rowCount, ...parsePublishedTexts(row.sheet, row.rowStates) };
}

/** True when the edition of `year` is archived (one indexed row, no sheet read). */
export async function isEditionArchived(db: Db, year: number): Promise<boolean> {
  const [row] = await db.select({ year: editionArchives.year }).from(editionArchives).where(eq(editionArchives.year, year)).limit(1);
  return row !== undefined;
}

/** Every archived edition, newest first. */
export async function listEditionArchives(db: Db): Promise<ArchiveSummary[]> {
  return db.select({ year: editionArchives.year, archivedAt: editionArchives.archivedAt, rowCount: editionArchives.rowCount }).from(editionArchives).orderBy(desc(editionArchives.year));
}
