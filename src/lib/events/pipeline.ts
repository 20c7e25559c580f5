// The live-events read pipeline (see docs/live-events.md): the source chain of the data mode,
// keys and quality checks, coordinates from the KV cache (never the geocoder), then the featured,
// promoted and engagement projections; during a database outage a read is degraded rather than
// failed. Each call checks its sources (one indexed read each); what was built or projected from
// unchanged sources is kept, so a render miss does not rebuild it, and a render miss may take a
// read begun up to READ_REUSE_MS earlier while no invalidation came (`recent`). A read the
// database has not answered within READ_FALLBACK_MS is answered from the saved list, and while the
// database stays stalled reads go straight to it, one probe read at a time.

import { readFile } from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import { centreCoordinates, populateCoordinates, warmCoordinates, type PopulationCounts, type WarmUpCounts, type WarmUpOptions } from "../geocoding/coordinates.ts";
import { findNewestBackupCsv } from "../store/backups.ts";
import { FIXTURE_SHEET_CSV } from "./fixtures.ts";
import { applyEngagement, applyFeatured, applyPromoted, engagementCounts, orderForHomepage, readProjectionState, recordCopies, settleActiveWindows, type EngagementCounts } from "./projections.ts";
import { LOCATIONS_KV_KEY } from "../geocoding/location-cache.ts";
import { checkSourceValidity, runQualityChecks } from "../sheet/quality.ts";
import { buildEventsFromRows, type EventKeyStats, type SheetRowInput, type SheetRowsResult } from "../sheet/sheet.ts";
import { parseSheetCsv } from "../sheet/csv.ts";
import { fieldsOfRow } from "../sheet/columns.ts";
import { parisYear } from "../paris-time.ts";
import { isDatabaseUnreachable, safeErrorText } from "../db/errors.ts";
import { memoisedPerObject } from "../memo/memo.ts";
import { dateSeededStore, findStoreMeta, isBlankStoreRow, saveStoreSheet, storeRowFields } from "../store/store.ts";
import type { SeedSummary, TemplateSeed } from "../db/pglite-template.ts";
import { findPublishedStamp, readPublishedSheet, type PublishedSheet } from "../store/published.ts";
import type { LiveEvent, SheetWarning } from "../sheet/types.ts";

/** Where a live read came from. `backup` and `local` are fallbacks in remote mode. */
export type EventSource = "store" | "backup" | "local" | "test";

export interface LoadOptions {
  /** Apply the active spotlight projection (default true). */
  includeFeaturedProjection?: boolean;
  /** Apply calendarSyncCount and savedCount (default true). */
  includeEngagementProjection?: boolean;
  /**
   * A read that began less than READ_REUSE_MS ago will do (render misses), unless the render cache
   * was invalidated since it began: without it, every load reads the store, so a write is seen by
   * the very next load.
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
  /**
   * The invalidation generation (EventReaderDeps.generation) when this read began. A render made
   * from it carries it, and the render cache keeps the render only while no invalidation has come
   * since (render-cache.ts, Rendered.generation).
   */
  generation: number;
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
   * The render cache's invalidation generation (RenderCache.generation), bumped by every
   * invalidation here or from another instance; without it (a reader of its own) always 0.
   */
  generation?: () => number;
  /**
   * Milliseconds of real elapsed time (default `performance.now`): the reuse window of `recent`
   * loads is real time, whatever the service clock says (a preview or a test clock stands still).
   */
  elapsed?: () => number;
}

/**
 * How long a read serves the `recent` loads after it began (docs/live-events.md, "What a read
 * costs"): a burst of render misses (distinct searches) shares one read instead of two queries
 * each. Any invalidation on this instance ends it at once, and a publish on another instance
 * reaches this one's next miss within this time even before its invalidation arrives.
 */
export const READ_REUSE_MS = 250;

/**
 * How long a live load waits for the database before it answers from the saved list
 * (docs/operations.md, "When the database is down"): the published list this process last read
 * (else the last fallback source's, else the sources that need no database: LOCAL_EVENTS_CSV). Well
 * inside the 4.5 s request deadline, with room for the render. From then on the database counts as
 * stalled: loads answer from the saved list at once, while one probe read at a time (a new one
 * each READ_FALLBACK_MS) waits for it; the first read that settles ends the stall.
 */
export const READ_FALLBACK_MS = 1_500;

/**
 * The invalidation generation a read from the saved list carries: older than any, so a render made
 * from it answers its own request and is never kept (render-cache.ts, Rendered.generation).
 */
export const SAVED_LIST_GENERATION = -1;
/** Why a read came from the saved list (its `degraded` and `fallbackReason`). */
const STALLED_REASON = `database not answering within ${READ_FALLBACK_MS} ms: the saved list`;

/** The live-event reader of a process. */
export interface EventReader {
  load(options?: LoadOptions): Promise<LiveRead>;
  /** The read a `recent` load with default switches would take at once, when one is kept and still good. */
  recentRead(): LiveRead | undefined;
  /**
   * Full read plus coordinate warm-up (geocode, upgrade, prune); used by admin writes, deploys, the
   * `warm-coordinates` task and the recovery action (`retryFailed`). Never degraded: it throws.
   */
  warm(options?: WarmUpOptions): Promise<{ read: LiveRead; counts: WarmUpCounts }>;
  /** Reads the chain without writing anything (admin dry-run); coordinates are not touched. */
  dryRun(): Promise<{ source: EventSource; eventCount: number; fallbackReason?: string; attempts: SourceAttempt[] }>;
  status(): ReaderStatus;
}

/** One source tried in a read. */
export interface SourceAttempt {
  source: EventSource;
  ok: boolean;
  reason?: string;
  eventCount?: number;
}

/** What a source yields: its events built from field rows, or why it cannot be read. */
/** A source's answer; `emptyByDesign` marks a list that is rightly empty (a new edition's, before its first publish). */
type SourceRead = { ok: true; built: SheetRowsResult; emptyByDesign?: boolean } | { ok: false; reason: string };

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
    if (last && last.stamp === stamp && last.year === year) return { ok: true, built: last.built, emptyByDesign: last.built.events.length === 0 };
    const published = await readPublishedSheet(db);
    if (!published) return { ok: false, reason: "empty" };
    const rows = publishedRowInputs(published);
    // A sheet left empty by starting the next edition is the truth (its events are in the
    // edition's archive), not a store to fall back from.
    if (rows.length === 0 && published.trigger !== ROLLOVER_TRIGGER) return { ok: false, reason: "empty" };
    const built = buildEventsFromRows(rows, { now: now() });
    last = { stamp: published.stamp, year, built };
    return { ok: true, built, emptyByDesign: rows.length === 0 };
  };
}

/** The trigger of the publish that starts an edition: the new edition's published sheet, empty until the team publishes. */
export const ROLLOVER_TRIGGER = "rollover";

/** The non-blank rows of a published sheet as the event builder reads them (row numbers as in the sheet). */
export function publishedRowInputs(published: Pick<PublishedSheet, "rows" | "states">): SheetRowInput[] {
  const rows: SheetRowInput[] = [];
  published.rows.forEach((row, index) => {
    if (!isBlankStoreRow(row.values)) rows.push({ rowNumber: index + 2, fields: storeRowFields(row.values), published: published.states.get(row.id) });
  });
  return rows;
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

// What the projections were last computed from (docs/live-events.md, "What a read costs"): the
// placed events per built list and coordinate-cache write, the active windows per schedule
// version until the next window boundary, the saved and calendar counts per their version
// (ProjectionState.calendarSyncs), and
// the projected list per switch combination while all three are the same objects.
type ActiveWindows = Awaited<ReturnType<typeof settleActiveWindows>>;
type Windows = { schedules: string; computedAt: number; validUntil: number; value: ActiveWindows };
type Counts = { version: string; value: Map<string, EngagementCounts> };
type Placed = { source: readonly LiveEvent[]; coordinates: string; events: LiveEvent[]; counts: PopulationCounts };
type ProjectionState = Awaited<ReturnType<typeof readProjectionState>>;
interface Kept {
  placed?: Placed;
  windows?: Windows;
  counts?: Counts;
  projected: Map<string, { placed: Placed; windows?: Windows; counts?: Counts; events: LiveEvent[] }>;
}

/** The source the chain settled on, every source tried, and whether one found the database unreachable. */
type ChainRead = { parsed: SheetRowsResult; source: EventSource; attempts: SourceAttempt[]; databaseDown: boolean };
/** The events of a read after coordinates and projections. */
type Projected = { events: LiveEvent[]; counts: PopulationCounts | WarmUpCounts; degraded?: string; validUntil?: number };
/** A settled read kept for `recent` loads: when it began (real time) and until when its placement windows hold (service clock). */
type Recent = { read: LiveRead; startedAt: number; validUntil: number };

/** The saved list a stalled load answers from: the store's list last read, or the last fallback source's without one. */
type Saved = Pick<ChainRead, "parsed" | "source">;
/** The database is stalled: when that was found and when the last probe read began (real time). */
type Stall = { since: number; probeAt: number };

/** The reader's dependencies and what it keeps between reads, shared by the steps below. */
interface Reader {
  deps: EventReaderDeps;
  readStore: () => Promise<SourceRead>;
  saved?: Saved;
  stall?: Stall;
  state: ReaderStatus;
  kept: Kept;
  inFlight: Map<string, Promise<LiveRead>>;
  generation: () => number;
  elapsed: () => number;
  /** The last settled read per switch combination, for `recent` loads. */
  recent: Map<string, Recent>;
}

/** Builds the reader over the process dependencies. */
export function createEventReader(deps: EventReaderDeps): EventReader {
  // Concurrent reads with the same switches share one in-flight read (single flight), and a read
  // from the store, undegraded, serves the `recent` loads of the next READ_REUSE_MS while no
  // invalidation comes (never past the next placement window boundary): a burst of render misses
  // makes one read.
  const reader: Reader = {
    deps,
    readStore: createStoreSource(deps.db, deps.now),
    state: { lastFetchTime: null, lastErrorMessage: null, source: null, eventCount: 0, fallbackReason: null },
    kept: { projected: new Map() },
    inFlight: new Map(),
    generation: deps.generation ?? (() => 0),
    elapsed: deps.elapsed ?? (() => performance.now()),
    recent: new Map(),
  };
  return {
    load: (options = {}) => loadShared(reader, options),
    recentRead() {
      const recent = reader.recent.get(DEFAULT_SWITCHES);
      return recent && isReusable(reader, recent) ? recent.read : undefined;
    },
    async warm(warmOptions = {}) {
      const result = await read(reader, {}, "warm", reader.generation(), warmOptions);
      return { read: result.read, counts: result.counts as WarmUpCounts };
    },
    dryRun: () => dryRun(reader),
    status: () => ({ ...reader.state }),
  };
}

/** Tries the sources in order (by default the data mode's chain); the first whose events pass the validity rule is read. */
async function readChain(deps: EventReaderDeps, readStore: () => Promise<SourceRead>, sources = chainFor(deps, readStore)): Promise<ChainRead> {
  const attempts: SourceAttempt[] = [];
  let databaseDown = false;
  for (const candidate of sources) {
    try {
      const input = await candidate.read();
      if (!input.ok) {
        attempts.push({ source: candidate.source, ok: false, reason: input.reason });
        continue;
      }
      const parsed = input.built;
      const validity = validityOf(parsed.events);
      if (!validity.valid && !(input.emptyByDesign && parsed.events.length === 0)) {
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

/** What the coordinate steps need from the process dependencies. */
function coordinateDeps(deps: EventReaderDeps) {
  return {
    kv: deps.kv,
    log: deps.log,
    now: deps.now,
    apiKey: deps.config.geocodingApiKey,
    apiUrl: deps.config.geocodingApiUrl,
    testMode: deps.config.dataMode === "test",
  };
}

/** The projection sequence: spotlights, promotions and homepage order when `windows` is given, saved counts when `counts` is. */
function applyProjections(events: LiveEvent[], windows: ActiveWindows | undefined, counts: Map<string, EngagementCounts> | undefined): LiveEvent[] {
  let out = events;
  if (windows) {
    applyFeatured(out, windows.spotlights);
    applyPromoted(out, windows.promotions);
    out = orderForHomepage(out);
  }
  if (counts) applyEngagement(out, counts);
  return out;
}

/** A read the database could not serve: arrondissement centres and empty projections, on new objects. */
function degradedProjection(events: readonly LiveEvent[], reason: string): Projected {
  const placed = centreCoordinates(events); // new objects
  applyFeatured(placed, new Map());
  applyPromoted(placed, new Map());
  applyEngagement(placed, new Map());
  return { events: placed, counts: { fromCache: 0, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 0, skippedIneligible: 0 }, degraded: reason };
}

/**
 * Coordinates from the cache and the projections, each needing the database. When the source
 * chain already found the database unreachable, or any of these queries fails, the read is
 * degraded instead of failing: arrondissement centres, no projections, and the reason returned.
 * A miss costs one small query while nothing the projections depend on has changed.
 */
async function placeAndProject(reader: Reader, events: readonly LiveEvent[], options: LoadOptions, databaseDown: boolean): Promise<Projected> {
  if (databaseDown) return degradedProjection(events, "database unreachable");
  try {
    const now = reader.deps.now();
    const state = await readProjectionState(reader.deps.db, LOCATIONS_KV_KEY, now);
    const placed = await placedFor(reader, events, state);
    const windows = options.includeFeaturedProjection !== false ? await windowsFor(reader, state, now) : undefined;
    const counts = options.includeEngagementProjection !== false ? await countsFor(reader, state) : undefined;
    return projectedFor(reader.kept, placed, windows, counts);
  } catch (error) {
    return degradedProjection(events, safeErrorText(error));
  }
}

/** The built list with coordinates from the cache, placed again when the list or the cache changed. */
async function placedFor(reader: Reader, events: readonly LiveEvent[], state: ProjectionState): Promise<Placed> {
  const { kept } = reader;
  if (kept.placed && kept.placed.source === events && kept.placed.coordinates === state.coordinates) return kept.placed;
  // New objects (populateCoordinates copies each event once): the built list stays untouched.
  const result = await populateCoordinates(events, coordinateDeps(reader.deps));
  recordCopies(events, result.events);
  return (kept.placed = { source: events, coordinates: state.coordinates, events: result.events, counts: result.counts });
}

/** The active placement windows, settled again when the schedules changed or a window boundary passed. */
async function windowsFor(reader: Reader, state: ProjectionState, now: Date): Promise<Windows> {
  const at = now.getTime();
  const windows = reader.kept.windows;
  if (windows && windows.schedules === state.schedules && at < windows.validUntil && at >= windows.computedAt) return windows;
  return (reader.kept.windows = { schedules: state.schedules, computedAt: at, validUntil: state.nextBoundaryMs ?? Number.POSITIVE_INFINITY, value: await settleActiveWindows(reader.deps.db, now) });
}

/** The saved and calendar counts, read again when a calendar sync or a My-night save was recorded. */
async function countsFor(reader: Reader, state: ProjectionState): Promise<Counts> {
  const counts = reader.kept.counts;
  if (counts && counts.version === state.calendarSyncs) return counts;
  return (reader.kept.counts = { version: state.calendarSyncs, value: await engagementCounts(reader.deps.db) });
}

/** The projected list of this switch combination, kept while its inputs are the same objects. */
function projectedFor(kept: Kept, placed: Placed, windows: Windows | undefined, counts: Counts | undefined): Projected {
  const variant = `${windows !== undefined}|${counts !== undefined}`;
  const previous = kept.projected.get(variant);
  const validUntil = windows?.validUntil;
  if (previous && previous.placed === placed && previous.windows === windows && previous.counts === counts) return { events: previous.events, counts: placed.counts, validUntil };
  // Copies per projection state: lists already handed out are never changed.
  const copies = placed.events.map((event) => ({ ...event }));
  recordCopies(placed.events, copies);
  const out = applyProjections(copies, windows?.value, counts?.value);
  kept.projected.set(variant, { placed, windows, counts, events: out });
  return { events: out, counts: placed.counts, validUntil };
}

/** Writers and the warm-up task: coordinates warmed and every projection; a database failure fails the call, nothing is degraded. */
async function warmProjected(deps: EventReaderDeps, events: readonly LiveEvent[], warmOptions: WarmUpOptions): Promise<Projected> {
  const placed = await warmCoordinates(events, coordinateDeps(deps), warmOptions);
  const windows = await settleActiveWindows(deps.db, deps.now());
  // New objects, as in placedFor.
  return { events: applyProjections(placed.events, windows, await engagementCounts(deps.db)), counts: placed.counts };
}

/** Reads the source chain; when every source failed, the status and the log say so before the error is thrown. */
async function readChainOrFail(reader: Reader, fetchedAt: Date): Promise<ChainRead> {
  try {
    return await readChain(reader.deps, reader.readStore);
  } catch (error) {
    reader.state.lastErrorMessage = safeErrorText(error);
    reader.state.lastFetchTime = fetchedAt.toISOString();
    reader.deps.log.error("events", "Live read failed: every source failed", { dataMode: reader.deps.config.dataMode }, error);
    throw error;
  }
}

/** One warning per read that did not get everything: the fallback source and/or the degradation. */
function logPartialRead(log: Logger, source: EventSource, fallbackReason: string | undefined, degraded: string | undefined): void {
  if (fallbackReason) log.warn("events", "Live read used a fallback source", { source, reason: fallbackReason, ...(degraded ? { degraded } : {}) });
  else if (degraded) log.warn("events", "Live read degraded: arrondissement centres and no placements or counts", { source, reason: degraded });
}

/** One read: the source chain, the quality log, coordinates and projections, then the status. `generation` is the invalidation generation it began at. */
async function read(reader: Reader, options: LoadOptions, coordinates: "populate" | "warm", generation: number, warmOptions: WarmUpOptions = {}): Promise<{ read: LiveRead; counts: PopulationCounts | WarmUpCounts; validUntil?: number }> {
  const { deps } = reader;
  const fetchedAt = deps.now();
  const { parsed, source, attempts, databaseDown } = await readChainOrFail(reader, fetchedAt);
  // The saved list: the published list last read, else the last fallback source's.
  if (source === "store" || reader.saved?.source !== "store") reader.saved = { parsed, source };
  const fallbackReason = attempts.length > 1 ? attempts.filter((a) => !a.ok).map((a) => `${a.source}: ${a.reason}`).join("; ") : undefined;
  const quality = qualityOf(parsed.events);
  deps.log.info("events", "Quality checks", { source, eventCount: quality.eventCount, averageScore: quality.averageScore, counts: quality.counts });
  const { events, counts, degraded, validUntil } = coordinates === "warm" ? await warmProjected(deps, parsed.events, warmOptions) : await placeAndProject(reader, parsed.events, options, databaseDown);
  logPartialRead(deps.log, source, fallbackReason, degraded);
  Object.assign(reader.state, {
    lastFetchTime: fetchedAt.toISOString(),
    lastErrorMessage: fallbackReason ?? degraded ?? null,
    source,
    eventCount: events.length,
    fallbackReason: fallbackReason ?? null,
  });
  return { read: { events, source, fallbackReason, degraded, warnings: parsed.warnings, keyStats: parsed.keyStats, fetchedAt, generation }, counts, validUntil };
}

/** Which projections a load asks for, as the key of its shared and kept reads. */
function switchesOf(options: LoadOptions): string {
  return `${options.includeFeaturedProjection !== false}|${options.includeEngagementProjection !== false}`;
}
const DEFAULT_SWITCHES = switchesOf({});

/** `EventReader.load`: a recent read when allowed and still good, else the read in flight, else a new one. */
function loadShared(reader: Reader, options: LoadOptions): Promise<LiveRead> {
  const key = switchesOf(options);
  if (options.recent) {
    const recent = reader.recent.get(key);
    if (recent && isReusable(reader, recent)) return Promise.resolve(recent.read);
  }
  if (reader.stall) return stalledLoad(reader, key, options);
  return reader.inFlight.get(key) ?? startRead(reader, key, options);
}

/**
 * A kept read still serves `recent` loads: it began less than READ_REUSE_MS ago by the real clock
 * and by the service clock (a test clock moved on, or a preview, ends it too), no invalidation
 * came since, and the service clock is still inside its placement windows.
 */
function isReusable(reader: Reader, recent: Recent): boolean {
  const at = reader.deps.now().getTime();
  const fetchedAt = recent.read.fetchedAt.getTime();
  const young = reader.elapsed() - recent.startedAt < READ_REUSE_MS && at >= fetchedAt && at - fetchedAt < READ_REUSE_MS;
  return young && recent.read.generation === reader.generation() && at < recent.validUntil;
}

/**
 * Starts a shared read; once settled from the store, undegraded, it is kept for `recent` loads.
 * Its loads wait for it READ_FALLBACK_MS at most, then answer from the saved list; any settling
 * (an answer or an error) ends a stall.
 */
function startRead(reader: Reader, key: string, options: LoadOptions): Promise<LiveRead> {
  const startedAt = reader.elapsed();
  const reading = read(reader, options, "populate", reader.generation());
  const forget = () => {
    if (reader.inFlight.get(key) === pending) reader.inFlight.delete(key);
  };
  const pending = withinBudget(reader, reading.then((r) => r.read), forget);
  reader.inFlight.set(key, pending);
  const clear = () => {
    forget();
    endStall(reader);
  };
  reading.then((r) => {
    clear();
    const full = r.read.source === "store" && !r.read.degraded && !r.read.fallbackReason;
    if (full) reader.recent.set(key, { read: r.read, startedAt, validUntil: r.validUntil ?? Number.POSITIVE_INFINITY });
  }, clear);
  return pending;
}

/** The read, or past READ_FALLBACK_MS the saved list: the database is then stalled, and `forget` stops loads joining this read. */
function withinBudget(reader: Reader, reading: Promise<LiveRead>, forget: () => void): Promise<LiveRead> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<LiveRead>((resolve, reject) => {
    timer = setTimeout(() => {
      beginStall(reader);
      forget();
      savedRead(reader).then(resolve, reject);
    }, READ_FALLBACK_MS);
  });
  return Promise.race([reading, late]).finally(() => clearTimeout(timer));
}

/** While the database is stalled: the saved list at once, and a new probe read when the last one began READ_FALLBACK_MS ago. */
function stalledLoad(reader: Reader, key: string, options: LoadOptions): Promise<LiveRead> {
  const stall = reader.stall!;
  if (reader.elapsed() - stall.probeAt >= READ_FALLBACK_MS) {
    stall.probeAt = reader.elapsed();
    startRead(reader, key, options).catch(() => {});
  }
  return savedRead(reader);
}

/** The database did not answer a read in time: logged once, and the status says so until it answers. */
function beginStall(reader: Reader): void {
  if (reader.stall) return;
  const at = reader.elapsed();
  reader.stall = { since: at, probeAt: at };
  Object.assign(reader.state, { lastErrorMessage: STALLED_REASON, fallbackReason: STALLED_REASON });
  reader.deps.log.warn("events", "Database not answering live reads: serving the saved list until it answers", { budgetMs: READ_FALLBACK_MS });
}

function endStall(reader: Reader): void {
  if (!reader.stall) return;
  const stalledMs = Math.round(reader.elapsed() - reader.stall.since);
  reader.stall = undefined;
  reader.deps.log.info("events", "Database answering live reads again", { stalledMs });
}

/** The saved list's events, degraded as an outage read is (arrondissement centres, no projections): made once per saved list. */
const savedProjectionOf = memoisedPerObject((events: readonly LiveEvent[]) => degradedProjection(events, STALLED_REASON).events);

/**
 * A read from the saved list, without the database: the last chain read's events, or without one
 * the chain's sources that need no database. Never kept for `recent` loads nor in renders.
 */
async function savedRead(reader: Reader): Promise<LiveRead> {
  const { deps } = reader;
  reader.saved ??= await readChain(deps, reader.readStore, chainFor(deps, reader.readStore).filter((s) => s.source === "local" || s.source === "test"));
  const { parsed, source } = reader.saved;
  return { events: savedProjectionOf(parsed.events), source, fallbackReason: `${source}: ${STALLED_REASON}`, degraded: STALLED_REASON, warnings: parsed.warnings, keyStats: parsed.keyStats, fetchedAt: deps.now(), generation: SAVED_LIST_GENERATION };
}

/** `EventReader.dryRun`: the source chain alone, nothing written. */
async function dryRun(reader: Reader): Promise<{ source: EventSource; eventCount: number; fallbackReason?: string; attempts: SourceAttempt[] }> {
  const { parsed, source, attempts } = await readChain(reader.deps, reader.readStore);
  const failed = attempts.filter((a) => !a.ok);
  return { source, eventCount: parsed.events.length, fallbackReason: failed.length ? failed.map((a) => `${a.source}: ${a.reason}`).join("; ") : undefined, attempts };
}

/** The first start's seed: the local CSV saved and published as the system's import. */
function writeSeed(db: Db, csv: string, now: Date) {
  return saveStoreSheet(db, csv, { updatedBy: "system", origin: "local-file-import", now });
}

/**
 * The seed of a seeded database template (docs/operations.md, "Startup and shutdown"): the first
 * start's own write, made once at install, so a first start from the same CSV finds it done.
 */
export function templateSeed(csv: string): TemplateSeed {
  return {
    csv,
    seed: async (db) => {
      const saved = await writeSeed(db, csv, new Date());
      return saved.ok ? { rows: saved.rowCount, generatedKeys: saved.generatedEventKeyCount } : undefined;
    },
  };
}

/**
 * First start in remote mode: an empty store is seeded from the local CSV so a newcomer sees the
 * full site at once. Returns the number of rows written (0 when the store already had data).
 * `fromTemplate`: this start copied the seeded template made from the same CSV, so the seed is
 * written already and is only dated now.
 */
export async function seedStoreIfEmpty(deps: Pick<EventReaderDeps, "config" | "db" | "log" | "now">, fromTemplate?: SeedSummary): Promise<number> {
  if (deps.config.dataMode !== "remote") return 0;
  if (fromTemplate) {
    await dateSeededStore(deps.db, deps.now());
    deps.log.info("events", "Seeded the event store from the local CSV", { ...fromTemplate, fromTemplate: true });
    return fromTemplate.rows;
  }
  if (await findStoreMeta(deps.db)) return 0;
  let csv: string;
  try {
    csv = await readFile(deps.config.localEventsCsv, "utf8");
  } catch (error) {
    deps.log.warn("events", "Could not seed the event store: local CSV unreadable", { path: deps.config.localEventsCsv }, error);
    return 0;
  }
  const saved = await writeSeed(deps.db, csv, deps.now());
  if (!saved.ok) {
    deps.log.warn("events", "Could not seed the event store: local CSV is not a valid sheet", { error: saved.error });
    return 0;
  }
  deps.log.info("events", "Seeded the event store from the local CSV", { rows: saved.rowCount, generatedKeys: saved.generatedEventKeyCount });
  return saved.rowCount;
}
