// Starting the next edition (see docs/editions.md, "Rollover"): one write that archives the
// published sheet of the edition that is over, opens the working sheet of the new one (empty but
// for the rows the team chose to carry over, re-dated by the distance between the two nights and
// given new Event Keys, as drafts) and publishes the new edition's sheet empty. A backup of the
// store and both schedules is taken first. Everything else follows the edition rule: submissions
// and the banner's countdown point at the new edition, the archive page reads the archive, share
// links to past events open over it, partner links keep their orders.

import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { InvalidationBus } from "../serving/invalidation.ts";
import { HOMEPAGE } from "../serving/invalidation.ts";
import type { EventReader } from "../events/pipeline.ts";
import { ROLLOVER_TRIGGER } from "../events/pipeline.ts";
import { currentEdition, editionOf, editionState, type EditionWindows } from "../events/editions.ts";
import { EDITIONS_CACHE_TAG } from "../site/edition-settings.ts";
import { addDays, isValidIsoDate, parseDateCell } from "../sheet/dates.ts";
import { createBackup } from "../store/backups.ts";
import { archivePublishedSheet, isEditionArchived } from "../store/edition-archive.ts";
import { publishWholeSheet } from "../store/published.ts";
import { readStoreSheet, saveStoreSheet, WriteRefused, type StoreRow } from "../store/store.ts";
import { invalid, refused, type Invalid, type Refused } from "../outcome.ts";

/** What the team asks for: the edition to start and the working-sheet rows to carry into it. */
export interface RolloverInput {
  year: number;
  carryOver: string[];
}

/** What a rollover did. */
export interface RolloverDone {
  ok: true;
  year: number;
  archived: { year: number; rowCount: number };
  carried: number;
  /** The backup taken first, or null when the newest one already held this store. */
  backupId: string | null;
}

/** What starting an edition needs. */
export interface RolloverDeps {
  db: Db;
  log: Logger;
  now: () => Date;
  events: EventReader;
  invalidation: InvalidationBus;
  editions: { windows: EditionWindows };
}

/** The most rows one rollover carries over (a festival's recurring nights, not a whole sheet). */
export const MAX_CARRY_OVER = 500;

/** Reads the request: a year and, optionally, the ids of the rows to carry over (the API's fields are held to ADMIN_BODY_FIELDS by the admin guard). */
export function parseRolloverInput(input: unknown): RolloverInput | Invalid {
  const body = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const year = typeof body.year === "number" ? body.year : typeof body.year === "string" && /^\d{4}$/.test(body.year.trim()) ? Number(body.year.trim()) : Number.NaN;
  if (!Number.isInteger(year)) return invalid("The year of the edition to start is required", [{ field: "year", message: "A four-digit year" }]);
  const raw = body.carryOver ?? [];
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.some((id) => typeof id !== "string") || list.length > MAX_CARRY_OVER) {
    return invalid(`carryOver must be a list of at most ${MAX_CARRY_OVER} row ids`, [{ field: "carryOver", message: "A list of row ids" }]);
  }
  return { year, carryOver: [...new Set(list as string[])] };
}

/** A carried row: its dates moved by `days` (read as the closing edition's), a new Event Key to be made, no placement. */
function carried(row: StoreRow, days: number, closingNight: Date): Record<string, string> {
  const values: Record<string, string> = { ...row.values, eventKey: "" };
  for (const field of ["date", "dateTo"] as const) {
    const cell = values[field] ?? "";
    if (cell.trim() === "") continue;
    const resolved = parseDateCell(cell, closingNight);
    if (resolved.ok && isValidIsoDate(resolved.iso)) values[field] = addDays(resolved.iso, days);
  }
  return values;
}

const DAY_MS = 86_400_000;

function alreadyStarted(closing: number, year: number): Refused<"conflict"> {
  return refused("conflict", `The ${closing} edition is archived already: ${year} was started`);
}

/**
 * Starts the edition of `input.year`: only the current edition, only while it is upcoming, and
 * only once (a second start, here or on another instance, finds the archive and is refused).
 */
export async function startEdition(deps: RolloverDeps, input: RolloverInput, actor: string): Promise<RolloverDone | Invalid | Refused<"conflict">> {
  const now = deps.now();
  const edition = currentEdition(now, deps.editions.windows);
  if (input.year !== edition.year || editionState(edition, now) !== "upcoming") {
    return invalid(`Only the coming edition (${edition.year}) can be started, before its first day`, [{ field: "year", message: `Start ${edition.year}` }]);
  }
  const closing = editionOf(edition.year - 1, deps.editions.windows);
  // First, and checked again inside the write (another instance may start it meanwhile): a repeated
  // click is told the edition was started, takes no backup, and is not judged on rows that the
  // first start already replaced.
  if (await isEditionArchived(deps.db, closing.year)) return alreadyStarted(closing.year, edition.year);
  const sheet = await readStoreSheet(deps.db);
  const byId = new Map((sheet?.rows ?? []).map((row) => [row.id, row]));
  const missing = input.carryOver.filter((id) => !byId.has(id));
  // Rows replaced by a start that committed in between are not the caller's mistake.
  if (missing.length > 0 && (await isEditionArchived(deps.db, closing.year))) return alreadyStarted(closing.year, edition.year);
  if (missing.length > 0) return invalid(`Rows not in the working sheet: ${missing.slice(0, 5).join(", ")}`, [{ field: "carryOver", message: "Unknown row ids" }]);
  if (!sheet) return refused("conflict", "There is no sheet to archive yet");

  // Skipped when the store has not changed since the newest backup, which then already holds it.
  const backup = await createBackup(deps.db, { createdBy: "admin-panel", trigger: "pre-rollover", now });
  const days = Math.round((Date.parse(edition.night) - Date.parse(closing.night)) / DAY_MS);
  const closingNight = new Date(`${closing.night}T12:00:00Z`);
  const rows = input.carryOver.map((id) => carried(byId.get(id)!, days, closingNight));
  const columns = sheet.columns.map((c) => ({ key: c.key, label: c.label }));
  let archivedRows = 0;
  try {
    const saved = await saveStoreSheet(
      deps.db,
      { headers: columns.map((c) => c.label), columnKeys: columns.map((c) => c.key), rows: rows.map((values) => columns.map((c) => values[c.key] ?? "")) },
      {
        updatedBy: "rollover",
        origin: "manual",
        trigger: "rollover",
        actor,
        now,
        publish: false,
        allowEmpty: true,
        within: async (tx, revision) => {
          const archive = await archivePublishedSheet(tx, closing.year, { actor, now });
          if (!archive.archived) {
            throw new WriteRefused(archive.why === "exists" ? alreadyStarted(closing.year, edition.year) : refused("conflict", "Nothing was ever published: there is no edition to archive"));
          }
          archivedRows = archive.rowCount;
          // The new edition's published sheet starts empty: the carried rows are drafts until published.
          await publishWholeSheet(tx, { columns, rows: [] }, { now, actor, trigger: ROLLOVER_TRIGGER, storeRevision: revision });
        },
      },
    );
    if (!saved.ok) return saved.reason === "conflict" ? refused("conflict", saved.error) : invalid(saved.error, []);
  } catch (error) {
    if (error instanceof WriteRefused) return error.refusal as Refused<"conflict">;
    throw error;
  }
  deps.log.info("editions", "Edition started", { year: edition.year, archived: closing.year, archivedRows, carried: rows.length });
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags, EDITIONS_CACHE_TAG] });
  return { ok: true, year: edition.year, archived: { year: closing.year, rowCount: archivedRows }, carried: rows.length, backupId: backup.skipped ? null : backup.backup.id };
}
