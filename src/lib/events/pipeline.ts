// The live-events read pipeline (see docs/live-events.md): the source chain of the data mode,
// keys and quality checks, coordinates from the KV cache (never the geocoder), then the featured,
// promoted and engagement projections; during a database outage a read is degraded rather than
// failed. Each call checks its sources (one indexed read each); what was built or projected from
// unchanged sources is kept, so a render miss does not rebuild it.

import { readFile } from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import { centreCoordinates, populateCoordinates, warmCoordinates, type PopulationCounts, type WarmUpCounts, type WarmUpOptions } from "../geocoding/coordinates.ts";
import { findNewestBackupCsv } from "../store/backups.ts";
import { FIXTURE_SHEET_CSV } from "./fixtures.ts";
import { applyEngagement, applyFeatured, applyPromoted, calendarSyncCounts, orderForHomepage, readProjectionState, recordCopies, settleActiveWindows } from "./projections.ts";
import { LOCATIONS_KV_KEY } from "../geocoding/location-cache.ts";
import { checkSourceValidity, runQualityChecks } from "../sheet/quality.ts";
import { buildEventsFromRows, type EventKeyStats, type SheetRowInput, type SheetRowsResult } from "../sheet/sheet.ts";
import { parseSheetCsv } from "../sheet/csv.ts";
import { fieldsOfRow } from "../sheet/columns.ts";
import { parisYear } from "../paris-time.ts";
import { isDatabaseUnreachable, safeErrorText } from "../db/errors.ts";
import { memoisedPerObject } from "../memo.ts";
import { findStoreMeta, isBlankStoreRow, saveStoreSheet, storeRowFields } from "../store/store.ts";
import { findPublishedStamp, readPublishedSheet } from "../store/published.ts";
import type { LiveEvent, SheetWarning } from "../sheet/types.ts";

/** Where a live read came from. `backup` and `local` are fallbacks in remote mode. */
export type EventSource = "store" | "backup" | "local" | "test";

export interface LoadOptions {
  /** Apply the active spotlight projection (default true). */
  includeFeaturedProjection?: boolean;
  /** Apply calendarSyncCount (default true). */
  includeEngagementProjection?: boolean;
  /**
   * A read that settled less than READ_REUSE_MS ago will do (render misses): without it, every
   * load reads the store, so a write is seen by the very next load.
   */
  recent?: boolean;
}

/** The result of one live read. */
export interface LiveRead {
  /** In homepage order when the featured projection is on, else in sheet order. */
  events: LiveEvent[];
  source: EventSource;
  /** Why the primary source was not used (remote mode fallback), if it was not. */
  fallbackReason?: string;
  /**
   * Set when the database could not serve this read's coordinates or projections (an outage):
   * events carry arrondissement centres and no spotlight, promoted or calendar counts.
   */
  degraded?: string;
  warnings: SheetWarning[];
  keyStats: EventKeyStats;
  fetchedAt: Date;
}

/** Runtime status of the reader, for admin status screens. */
export interface ReaderStatus {
  lastFetchTime: string | null;
  lastErrorMessage: string | null;
  source: EventSource | null;
  eventCount: number;
  fallbackReason: string | null;
}

/** Thrown when every source of the chain failed; pages keep their previous render. */
export class EventsUnavailableError extends Error {
  constructor(readonly reasons: string[]) {
    super(`Events are unavailable: ${reasons.join("; ")}`);
    this.name = "EventsUnavailableError";
  }
}

export interface EventReaderDeps {
  config: Pick<Config, "dataMode" | "localEventsCsv" | "geocodingApiKey" | "geocodingApiUrl">;
  db: Db;
  kv: Kv;
  log: Logger;
  now: () => Date;
  /**
   * Milliseconds of real elapsed time (default `performance.now`): the reuse window of `recent`
   * loads is real time, whatever the service clock says (a preview or a test clock stands still).
   */
  elapsed?: () => number;
}

/** The live-event reader of a process. */
export interface EventReader {
  load(options?: LoadOptions): Promise<LiveRead>;
  /**
   * Full read plus coordinate warm-up (geocode, upgrade, prune); used by admin writes, deploys, the
   * `warm-coordinates` job and the recovery action (`retryFailed`). Never degraded: it throws.
   */
  warm(options?: WarmUpOptions): Promise<{ read: LiveRead; counts: WarmUpCounts }>;
  /** Reads the chain without writing anything (admin dry-run); coordinates are not touched. */
  dryRun(): Promise<{ source: EventSource; eventCount: number; fallbackReason?: string; attempts: SourceAttempt[] }>;
  status(): ReaderStatus;
  /** Drops the read kept for reuse (every invalidation, local or from another instance, calls it). */
  forget(): void;
}

/**
 * How long a settled read serves the next loads (docs/live-events.md, "What a read costs"): a
 * burst of render misses (distinct searches) shares one read instead of two queries each. Any
 * invalidation on this instance drops it at once, and a publish on another instance reaches this
 * one's next miss within this time (the bound the render cache's freshness promises is 1 s).
 */
export const READ_REUSE_MS = 250;

/** One source tried in a read. */
export interface SourceAttempt {
  source: EventSource;
  ok: boolean;
  reason?: string;
  eventCount?: number;
}

/** What a source yields: its events built from field rows, or why it cannot be read. */
type SourceRead = { ok: true; built: SheetRowsResult } | { ok: false; reason: string };

interface Source {
  source: EventSource;
  read: () => Promise<SourceRead>;
}

/** A CSV text (backup, local file, fixtures) through the sheet's CSV rules into the sheet builder. */
function buildFromCsv(csv: string | undefined, now: Date): SourceRead {
  if (csv === undefined || csv.trim() === "") return { ok: false, reason: "empty" };
  const parsed = parseSheetCsv(csv);
  if (!parsed.ok) return { ok: false, reason: parsed.error };
  return { ok: true, built: buildEventsFromRows(parsed.rows.map((row) => ({ rowNumber: row.rowNumber, fields: fieldsOfRow(row.cells, parsed.columnByField) })), { now }) };
}

/**
 * The published sheet's rows go straight to the sheet builder: no CSV in between. Visitors see only
 * what was published (docs/store-and-backups.md, "Published revision"); the working sheet the
 * editor autosaves is never read here. Keys were assigned when the rows were saved; rows whose
 * core cells are all empty carry no event (as blank CSV lines).
 *
 * The built result is kept while the published stamp and the Paris year are the same: every
 * publish writes a new stamp in its own transaction, and the stamp is read on every call (one
 * indexed row), so a publish on any instance is seen by the very next read. For a 2,000-row store
 * this skips reading the rows and building the events on each render-cache miss.
 */
function createStoreSource(db: Db, now: () => Date): () => Promise<SourceRead> {
  let last: { stamp: string; year: number; built: SheetRowsResult } | undefined;
  return async () => {
    const stamp = await findPublishedStamp(db);
    if (stamp === undefined) return { ok: false, reason: "empty" };
    const year = parisYear(now());
    if (last && last.stamp === stamp && last.year === year) return { ok: true, built: last.built };
    const published = await readPublishedSheet(db);
    if (!published) return { ok: false, reason: "empty" };
    const rows: SheetRowInput[] = [];
    published.rows.forEach((row, index) => {
      if (!isBlankStoreRow(row.values)) rows.push({ rowNumber: index + 2, fields: storeRowFields(row.values), published: published.states.get(row.id) });
    });
    if (rows.length === 0) return { ok: false, reason: "empty" };
    const built = buildEventsFromRows(rows, { now: now() });
    last = { stamp: published.stamp, year, built };
    return { ok: true, built };
  };
}

function chainFor(deps: EventReaderDeps, readStore: () => Promise<SourceRead>): Source[] {
  const local: Source = { source: "local", read: async () => buildFromCsv(await readFile(deps.config.localEventsCsv, "utf8"), deps.now()) };
  switch (deps.config.dataMode) {
    case "test":
      return [{ source: "test", read: async () => buildFromCsv(FIXTURE_SHEET_CSV, deps.now()) }];
    case "local":
      return [local];
    case "remote":
      return [
        { source: "store", read: readStore },
        { source: "backup", read: async () => buildFromCsv((await findNewestBackupCsv(deps.db))?.csv, deps.now()) },
        local,
      ];
  }
}

// The source validity rule and the quality report look only at the built list, and the store source
// hands back the same list while the store is unchanged: each read logs the report, computed once.
const validityOf = memoisedPerObject((events: readonly LiveEvent[]) => checkSourceValidity(events));
const qualityOf = memoisedPerObject((events: readonly LiveEvent[]) => runQualityChecks(events));

/** Builds the reader over the process dependencies. */
export function createEventReader(deps: EventReaderDeps): EventReader {
  const readStore = createStoreSource(deps.db, deps.now);
  const state: ReaderStatus = { lastFetchTime: null, lastErrorMessage: null, source: null, eventCount: 0, fallbackReason: null };

  async function readChain(): Promise<{ parsed: SheetRowsResult; source: EventSource; attempts: SourceAttempt[]; databaseDown: boolean }> {
    const attempts: SourceAttempt[] = [];
    let databaseDown = false;
    for (const candidate of chainFor(deps, readStore)) {
      try {
        const input = await candidate.read();
        if (!input.ok) {
          attempts.push({ source: candidate.source, ok: false, reason: input.reason });
          continue;
        }
        const parsed = input.built;
        const validity = validityOf(parsed.events);
        if (!validity.valid) {
          attempts.push({ source: candidate.source, ok: false, reason: validity.reason, eventCount: validity.total });
          continue;
        }
        attempts.push({ source: candidate.source, ok: true, eventCount: parsed.events.length });
        return { parsed, source: candidate.source, attempts, databaseDown };
      } catch (error) {
        if (isDatabaseUnreachable(error)) databaseDown = true;
        attempts.push({ source: candidate.source, ok: false, reason: safeErrorText(error) });
      }
    }
    throw new EventsUnavailableError(attempts.map((a) => `${a.source}: ${a.reason}`));
  }

  const coordinateDeps = () => ({
    kv: deps.kv,
    log: deps.log,
    now: deps.now,
    apiKey: deps.config.geocodingApiKey,
    apiUrl: deps.config.geocodingApiUrl,
    testMode: deps.config.dataMode === "test",
  });

  // What the projections were last computed from (docs/live-events.md, "What a read costs"): the
  // placed events per built list and coordinate-cache write, the active windows per schedule
  // version until the next window boundary, the saved counts per newest calendar_sync row, and
  // the projected list per switch combination while all three are the same objects.
  type Windows = { schedules: string; computedAt: number; validUntil: number; value: Awaited<ReturnType<typeof settleActiveWindows>> };
  type Counts = { version: string; value: Map<string, number> };
  type Placed = { source: readonly LiveEvent[]; coordinates: string; events: LiveEvent[]; counts: PopulationCounts };
  const kept: { placed?: Placed; windows?: Windows; counts?: Counts; projected: Map<string, { placed: Placed; windows?: Windows; counts?: Counts; events: LiveEvent[] }> } = { projected: new Map() };

  /**
   * Coordinates from the cache and the projections, each needing the database. When the source
   * chain already found the database unreachable, or any of these queries fails, the read is
   * degraded instead of failing: arrondissement centres, no projections, and the reason returned.
   * A miss costs one small query while nothing the projections depend on has changed.
   */
  async function placeAndProject(events: readonly LiveEvent[], options: LoadOptions, databaseDown: boolean): Promise<{ events: LiveEvent[]; counts: PopulationCounts; degraded?: string; validUntil?: number }> {
    const degrade = (reason: string) => {
      const placed = centreCoordinates(events); // new objects
      applyFeatured(placed, new Map());
      applyPromoted(placed, new Map());
      applyEngagement(placed, new Map());
      return { events: placed, counts: { fromCache: 0, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 0, skippedIneligible: 0 }, degraded: reason };
    };
    if (databaseDown) return degrade("database unreachable");
    try {
      const now = deps.now();
      const at = now.getTime();
      const state = await readProjectionState(deps.db, LOCATIONS_KV_KEY, now);
      let placed = kept.placed;
      if (!placed || placed.source !== events || placed.coordinates !== state.coordinates) {
        // New objects (populateCoordinates copies each event once): the built list stays untouched.
        const result = await populateCoordinates(events, coordinateDeps());
        recordCopies(events, result.events);
        placed = kept.placed = { source: events, coordinates: state.coordinates, events: result.events, counts: result.counts };
      }
      let windows: Windows | undefined;
      if (options.includeFeaturedProjection !== false) {
        windows = kept.windows;
        if (!windows || windows.schedules !== state.schedules || at >= windows.validUntil || at < windows.computedAt) {
          windows = kept.windows = { schedules: state.schedules, computedAt: at, validUntil: state.nextBoundaryMs ?? Number.POSITIVE_INFINITY, value: await settleActiveWindows(deps.db, now) };
        }
      }
      let counts: Counts | undefined;
      if (options.includeEngagementProjection !== false) {
        counts = kept.counts;
        if (!counts || counts.version !== state.calendarSyncs) counts = kept.counts = { version: state.calendarSyncs, value: await calendarSyncCounts(deps.db) };
      }
      const variant = `${windows !== undefined}|${counts !== undefined}`;
      const previous = kept.projected.get(variant);
      const validUntil = windows?.validUntil;
      if (previous && previous.placed === placed && previous.windows === windows && previous.counts === counts) return { events: previous.events, counts: placed.counts, validUntil };
      // Copies per projection state: lists already handed out are never changed.
      let out = placed.events.map((event) => ({ ...event }));
      recordCopies(placed.events, out);
      if (windows) {
        applyFeatured(out, windows.value.spotlights);
        applyPromoted(out, windows.value.promotions);
        out = orderForHomepage(out);
      }
      if (counts) applyEngagement(out, counts.value);
      kept.projected.set(variant, { placed, windows, counts, events: out });
      return { events: out, counts: placed.counts, validUntil };
    } catch (error) {
      return degrade(safeErrorText(error));
    }
  }

  async function read(options: LoadOptions, coordinates: "populate" | "warm", warmOptions: WarmUpOptions = {}): Promise<{ read: LiveRead; counts: PopulationCounts | WarmUpCounts; validUntil?: number }> {
    const fetchedAt = deps.now();
    let chain;
    try {
      chain = await readChain();
    } catch (error) {
      state.lastErrorMessage = safeErrorText(error);
      state.lastFetchTime = fetchedAt.toISOString();
      deps.log.error("events", "Live read failed: every source failed", { dataMode: deps.config.dataMode }, error);
      throw error;
    }
    const { parsed, source, attempts, databaseDown } = chain;
    const fallbackReason = attempts.length > 1 ? attempts.filter((a) => !a.ok).map((a) => `${a.source}: ${a.reason}`).join("; ") : undefined;

    const quality = qualityOf(parsed.events);
    deps.log.info("events", "Quality checks", { source, eventCount: quality.eventCount, averageScore: quality.averageScore, counts: quality.counts });

    let events: LiveEvent[];
    let counts: PopulationCounts | WarmUpCounts;
    let degraded: string | undefined;
    let validUntil: number | undefined;
    if (coordinates === "warm") {
      // Writers and the warm-up job: a database failure here fails the call, nothing is degraded.
      const placed = await warmCoordinates(parsed.events, coordinateDeps(), warmOptions);
      counts = placed.counts;
      events = placed.events; // new objects, as above
      const now = deps.now();
      const { spotlights, promotions } = await settleActiveWindows(deps.db, now);
      applyFeatured(events, spotlights);
      applyPromoted(events, promotions);
      events = orderForHomepage(events);
      applyEngagement(events, await calendarSyncCounts(deps.db));
    } else {
      ({ events, counts, degraded, validUntil } = await placeAndProject(parsed.events, options, databaseDown));
    }
    // One warning per read that did not get everything: the fallback source and/or the degradation.
    if (fallbackReason) deps.log.warn("events", "Live read used a fallback source", { source, reason: fallbackReason, ...(degraded ? { degraded } : {}) });
    else if (degraded) deps.log.warn("events", "Live read degraded: arrondissement centres and no placements or counts", { source, reason: degraded });

    Object.assign(state, {
      lastFetchTime: fetchedAt.toISOString(),
      lastErrorMessage: fallbackReason ?? degraded ?? null,
      source,
      eventCount: events.length,
      fallbackReason: fallbackReason ?? null,
    });
    return { read: { events, source, fallbackReason, degraded, warnings: parsed.warnings, keyStats: parsed.keyStats, fetchedAt }, counts, validUntil };
  }

  // Concurrent reads with the same switches share one in-flight read (single flight), and a read
  // that settled from the store, undegraded, serves the `recent` loads of the next READ_REUSE_MS
  // (never past the next placement window boundary): a burst of render misses makes one read. Invalidations
  // drop it (`forget`); a generation counter keeps a read that began before one from being kept.
  const inFlight = new Map<string, Promise<LiveRead>>();
  const elapsed = deps.elapsed ?? (() => performance.now());
  const recent = new Map<string, { read: LiveRead; keptAt: number; validUntil: number }>();
  let generation = 0;

  return {
    load(options = {}) {
      const key = `${options.includeFeaturedProjection !== false}|${options.includeEngagementProjection !== false}`;
      if (options.recent) {
        const kept = recent.get(key);
        const at = deps.now().getTime();
        if (kept && elapsed() - kept.keptAt < READ_REUSE_MS && at < kept.validUntil && at >= kept.read.fetchedAt.getTime()) return Promise.resolve(kept.read);
      }
      let pending = inFlight.get(key);
      if (!pending) {
        const started = generation;
        const reading = read(options, "populate");
        pending = reading.then((r) => r.read);
        inFlight.set(key, pending);
        const clear = () => inFlight.delete(key);
        reading.then((r) => {
          clear();
          const fresh = r.read.source === "store" && !r.read.degraded && !r.read.fallbackReason;
          if (fresh && started === generation) recent.set(key, { read: r.read, keptAt: elapsed(), validUntil: r.validUntil ?? Number.POSITIVE_INFINITY });
        }, clear);
      }
      return pending;
    },
    forget() {
      generation++;
      recent.clear();
    },
    async warm(warmOptions = {}) {
      const result = await read({}, "warm", warmOptions);
      return { read: result.read, counts: result.counts as WarmUpCounts };
    },
    async dryRun() {
      const { parsed, source, attempts } = await readChain();
      const failed = attempts.filter((a) => !a.ok);
      return { source, eventCount: parsed.events.length, fallbackReason: failed.length ? failed.map((a) => `${a.source}: ${a.reason}`).join("; ") : undefined, attempts };
    },
    status: () => ({ ...state }),
  };
}

/**
 * First start in remote mode: an empty store is seeded from the local CSV so a newcomer sees the
 * full site at once. Returns the number of rows written (0 when the store already had data).
 */
export async function seedStoreIfEmpty(deps: Pick<EventReaderDeps, "config" | "db" | "log" | "now">): Promise<number> {
  if (deps.config.dataMode !== "remote") return 0;
  if (await findStoreMeta(deps.db)) return 0;
  let csv: string;
  try {
    csv = await readFile(deps.config.localEventsCsv, "utf8");
  } catch (error) {
    deps.log.warn("events", "Could not seed the event store: local CSV unreadable", { path: deps.config.localEventsCsv }, error);
    return 0;
  }
  const saved = await saveStoreSheet(deps.db, csv, { updatedBy: "system", origin: "local-file-import", now: deps.now() });
  if (!saved.ok) {
    deps.log.warn("events", "Could not seed the event store: local CSV is not a valid sheet", { error: saved.error });
    return 0;
  }
  deps.log.info("events", "Seeded the event store from the local CSV", { rows: saved.rowCount, generatedKeys: saved.generatedEventKeyCount });
  return saved.rowCount;
}
