// Writes that change what visitors see: save the sheet, warm coordinates, revalidate the homepage.
// Admin save-and-revalidate, uploads, imports, restores and accepted submissions all go through here.

import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { HOMEPAGE, type InvalidationBus } from "../serving/invalidation.ts";
import type { EventReader } from "./pipeline.ts";
import { saveStoreSheet, type RawSheet, type SaveOptions, type SaveResult } from "../store/store.ts";
import type { WarmUpCounts, WarmUpOptions } from "../geocoding/coordinates.ts";

/** What publishing needs from the process dependencies. */
export interface PublishDeps {
  db: Db;
  events: EventReader;
  invalidation: InvalidationBus;
  log: Logger;
  now: () => Date;
}

/** The outcome of a revalidation: the live read's source and size, and the warm-up counts. */
export interface Revalidation {
  source: string;
  count: number;
  counts: WarmUpCounts;
  durationMs: number;
}

/** Full live read with coordinate warm-up, then homepage invalidation. Throws when the read fails. */
export async function revalidateHomepage(
  deps: PublishDeps,
  extraPaths: string[] = [],
  onProgress?: (done: number, total: number) => void,
): Promise<Revalidation> {
  const started = performance.now();
  const { read, counts } = await deps.events.warm({ onProgress });
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths, ...extraPaths], tags: [...HOMEPAGE.tags] });
  return { source: read.source, count: read.events.length, counts, durationMs: Math.round(performance.now() - started) };
}

/** Saves the sheet, then warms coordinates and revalidates the homepage. Nothing changes when the sheet is blocked. */
export async function publishSheet(
  deps: PublishDeps,
  input: RawSheet | string,
  options: Omit<SaveOptions, "now">,
): Promise<{ saved: SaveResult; revalidation?: Revalidation }> {
  const saved = await saveStoreSheet(deps.db, input, { ...options, now: deps.now() });
  if (!saved.ok) return { saved };
  const revalidation = await revalidateHomepage(deps);
  deps.log.info("events", "Sheet published", { rows: saved.rowCount, revision: saved.revision, by: options.updatedBy, source: revalidation.source });
  return { saved, revalidation };
}

/** The outcome of a coordinate warm-up run outside publishing. */
export interface CoordinateWarmUp {
  source: string;
  counts: WarmUpCounts;
  /** True when a venue got a new position, so the homepage was revalidated. */
  changed: boolean;
  durationMs: number;
}

/**
 * Geocodes what the live reads cannot (they only read the coordinate cache): venues missing from
 * the cache and estimates whose back-off has passed, or every estimate with `retryFailed`. The
 * homepage is revalidated only when a position changed. Used by the `warm-coordinates` task (the
 * console's "Rebuild coordinates" retries with `retryFailed` and reports venue progress).
 */
export async function warmCoordinatesNow(deps: Pick<PublishDeps, "events" | "invalidation">, options: WarmUpOptions = {}): Promise<CoordinateWarmUp> {
  const started = performance.now();
  const { read, counts } = await deps.events.warm(options);
  const changed = counts.geocodedFresh + counts.upgraded > 0;
  if (changed) await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags] });
  return { source: read.source, counts, changed, durationMs: Math.round(performance.now() - started) };
}
