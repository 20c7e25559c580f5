// The events of a past edition (see docs/editions.md, "The archive"): from the edition's archive
// once the team has started the next one, else from the live list (the edition is still in the
// published sheet). An archived sheet is read at its own night, so a date written without a year
// ("Sat 20 June") keeps the edition's year.

import type { Db } from "../db/client.ts";
import { parisInstant } from "../paris-time.ts";
import { buildEventsFromRows } from "../sheet/sheet.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { listEditionArchives, readEditionArchive } from "../store/edition-archive.ts";
import { editionOf, eventsOfEdition, editionYearOfDate, type EditionWindows } from "./editions.ts";
import { publishedRowInputs } from "./pipeline.ts";
import { findEventByKey } from "./lookup.ts";

/** The events of the archive of `year` (dated in that year), or undefined when it was never archived. */
export async function archivedEvents(db: Db, year: number, windows: EditionWindows): Promise<LiveEvent[] | undefined> {
  const archive = await readEditionArchive(db, year);
  if (!archive) return undefined;
  const built = buildEventsFromRows(publishedRowInputs(archive), { now: parisInstant(editionOf(year, windows).night, "12:00") });
  return built.events.filter((event) => editionYearOfDate(event.date) === year);
}

/** The events of the edition of `year`: its archive's when it has one, else those of the live list dated in that year. */
export async function eventsOfYear(db: Db, live: readonly LiveEvent[], year: number, windows: EditionWindows): Promise<readonly LiveEvent[]> {
  return (await archivedEvents(db, year, windows)) ?? eventsOfEdition(live, year).filter((event) => editionYearOfDate(event.date) === year);
}

/** An event no longer in the live list, looked up in the archives (newest first), with its edition's year. */
export async function findArchivedEvent(db: Db, eventKey: string, windows: EditionWindows): Promise<{ year: number; event: LiveEvent } | undefined> {
  for (const { year } of await listEditionArchives(db)) {
    const event = findEventByKey((await archivedEvents(db, year, windows)) ?? [], eventKey);
    if (event) return { year, event };
  }
  return undefined;
}
