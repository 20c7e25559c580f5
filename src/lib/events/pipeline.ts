// The live-events read pipeline (see docs/live-events.md): the source chain of the data mode,
// keys and quality checks, coordinates from the KV cache, then the featured, promoted and
// engagement projections. There is no event cache: every call reads the sources.

import { readFile } from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import { populateCoordinates, warmCoordinates, type PopulationCounts, type WarmUpCounts } from "../geocoding/coordinates.ts";
import { findNewestBackupCsv } from "../store/backups.ts";
import { FIXTURE_SHEET_CSV } from "./fixtures.ts";
import { activePromotions, activeSpotlights, applyEngagement, applyFeatured, applyPromoted, calendarSyncCounts, orderForHomepage } from "./projections.ts";
import { checkSourceValidity, runQualityChecks } from "../sheet/quality.ts";
import { parseEventSheet, type EventKeyStats } from "../sheet/sheet.ts";
import { parisYear } from "../paris-time.ts";
import { sha256Hex } from "../crypto.ts";
import { safeErrorText } from "../db/errors.ts";
import { findStoreStamp, readStoreSheet, saveStoreSheet, sheetToCsv } from "../store/store.ts";
import type { LiveEvent, SheetWarning } from "../sheet/types.ts";

/** Where a live read came from. `backup` and `local` are fallbacks in remote mode. */
export type EventSource = "store" | "backup" | "local" | "test";

export interface LoadOptions {
  /** Apply the active spotlight projection (default true). */
  includeFeaturedProjection?: boolean;
  /** Apply calendarSyncCount (default true). */
  includeEngagementProjection?: boolean;
}

/** The result of one live read. */
export interface LiveRead {
  /** In homepage order when the featured projection is on, else in sheet order. */
  events: LiveEvent[];
  source: EventSource;
  /** Why the primary source was not used (remote mode fallback), if it was not. */
  fallbackReason?: string;
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
}

/** Options of a warm-up: `onProgress` hears venues geocoded out of those to geocode. */
export interface WarmOptions {
  onProgress?: (done: number, total: number) => void;
}

/** The live-event reader of a process. */
export interface EventReader {
  load(options?: LoadOptions): Promise<LiveRead>;
  /** Full read plus coordinate warm-up (geocode, upgrade, prune); used by admin writes and deploys. */
  warm(options?: WarmOptions): Promise<{ read: LiveRead; counts: WarmUpCounts }>;
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

interface SourceCsv {
  source: EventSource;
  read: () => Promise<string | undefined>;
}

/**
 * Reads the store as CSV. Every save bumps the store revision in the same transaction, so while
 * the metadata row shows the same revision and checksum the rows are the same and the previous
 * text is reused; the metadata is still read on every call, so a change is seen at once.
 */
function createStoreCsvReader(db: Db): () => Promise<string | undefined> {
  let last: { stamp: string; csv: string } | undefined;
  return async () => {
    const stamp = await findStoreStamp(db);
    if (stamp === undefined) return undefined;
    if (last?.stamp === stamp) return last.csv;
    const stored = await readStoreSheet(db);
    if (!stored) return undefined;
    const csv = sheetToCsv(stored.sheet);
    last = { stamp, csv };
    return csv;
  };
}

function chainFor(deps: EventReaderDeps, readStoreCsv: () => Promise<string | undefined>): SourceCsv[] {
  const local: SourceCsv = { source: "local", read: () => readFile(deps.config.localEventsCsv, "utf8") };
  switch (deps.config.dataMode) {
    case "test":
      return [{ source: "test", read: async () => FIXTURE_SHEET_CSV }];
    case "local":
      return [local];
    case "remote":
      return [
        {
          source: "store",
          read: readStoreCsv,
        },
        { source: "backup", read: async () => (await findNewestBackupCsv(deps.db))?.csv },
        local,
      ];
  }
}

type ParsedSheet = ReturnType<typeof parseEventSheet>;

/**
 * Parsing is a pure function of the CSV text (and the Paris year, for dates without one), so the
 * last result is reused while the source text is byte-for-byte the same. Every read still reads
 * the source: a change in the store is seen at once. This saves the ~30 ms parse of a 2,000-row
 * sheet on each render-cache miss; it never serves anything the source no longer says.
 */
function createParseMemo(): (csv: string, now: Date) => ParsedSheet {
  let last: { digest: string; year: number; parsed: ParsedSheet } | undefined;
  return (csv, now) => {
    const digest = sha256Hex(csv);
    const year = parisYear(now);
    if (last && last.digest === digest && last.year === year) return last.parsed;
    const parsed = parseEventSheet(csv, { now });
    last = { digest, year, parsed };
    return parsed;
  };
}

/** Builds the reader over the process dependencies. */
export function createEventReader(deps: EventReaderDeps): EventReader {
  const parseMemo = createParseMemo();
  const readStoreCsv = createStoreCsvReader(deps.db);
  const state: ReaderStatus = { lastFetchTime: null, lastErrorMessage: null, source: null, eventCount: 0, fallbackReason: null };

  async function readChain(): Promise<{ parsed: Extract<ReturnType<typeof parseEventSheet>, { ok: true }>; source: EventSource; attempts: SourceAttempt[] }> {
    const attempts: SourceAttempt[] = [];
    for (const candidate of chainFor(deps, readStoreCsv)) {
      try {
        const csv = await candidate.read();
        if (csv === undefined || csv.trim() === "") {
          attempts.push({ source: candidate.source, ok: false, reason: "empty" });
          continue;
        }
        const parsed = parseMemo(csv, deps.now());
        if (!parsed.ok) {
          attempts.push({ source: candidate.source, ok: false, reason: parsed.error });
          continue;
        }
        const validity = checkSourceValidity(parsed.events);
        if (!validity.valid) {
          attempts.push({ source: candidate.source, ok: false, reason: validity.reason, eventCount: validity.total });
          continue;
        }
        attempts.push({ source: candidate.source, ok: true, eventCount: parsed.events.length });
        return { parsed, source: candidate.source, attempts };
      } catch (error) {
        attempts.push({ source: candidate.source, ok: false, reason: safeErrorText(error) });
      }
    }
    throw new EventsUnavailableError(attempts.map((a) => `${a.source}: ${a.reason}`));
  }

  const coordinateDeps = (onProgress?: WarmOptions["onProgress"]) => ({
    kv: deps.kv,
    log: deps.log,
    now: deps.now,
    apiKey: deps.config.geocodingApiKey,
    apiUrl: deps.config.geocodingApiUrl,
    testMode: deps.config.dataMode === "test",
    onProgress,
  });

  async function read(options: LoadOptions, coordinates: "populate" | "warm", warmOptions: WarmOptions = {}): Promise<{ read: LiveRead; counts: PopulationCounts | WarmUpCounts }> {
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
    const { parsed, source, attempts } = chain;
    const fallbackReason = attempts.length > 1 ? attempts.filter((a) => !a.ok).map((a) => `${a.source}: ${a.reason}`).join("; ") : undefined;
    if (fallbackReason) deps.log.warn("events", "Live read used a fallback source", { source, reason: fallbackReason });

    const quality = runQualityChecks(parsed.events);
    deps.log.info("events", "Quality checks", { source, eventCount: quality.eventCount, averageScore: quality.averageScore, counts: quality.counts });

    const placed = coordinates === "warm" ? await warmCoordinates(parsed.events, coordinateDeps(warmOptions.onProgress)) : await populateCoordinates(parsed.events, coordinateDeps());
    // Fresh objects per read: projections write into them, and the parse result may be shared.
    let events = placed.events.map((event) => ({ ...event }));
    const now = deps.now();
    const featured = options.includeFeaturedProjection !== false;
    if (featured) {
      const [spotlights, promotions] = await Promise.all([activeSpotlights(deps.db, now), activePromotions(deps.db, now)]);
      applyFeatured(events, spotlights);
      applyPromoted(events, promotions);
      events = orderForHomepage(events);
    }
    if (options.includeEngagementProjection !== false) applyEngagement(events, await calendarSyncCounts(deps.db));

    Object.assign(state, {
      lastFetchTime: fetchedAt.toISOString(),
      lastErrorMessage: fallbackReason ?? null,
      source,
      eventCount: events.length,
      fallbackReason: fallbackReason ?? null,
    });
    return { read: { events, source, fallbackReason, warnings: parsed.warnings, keyStats: parsed.keyStats, fetchedAt }, counts: placed.counts };
  }

  // Concurrent reads with the same switches share one in-flight read (single flight). Nothing is
  // kept once it settles: this coalesces a burst of cache misses, it is not an event cache.
  const inFlight = new Map<string, Promise<LiveRead>>();

  return {
    load(options = {}) {
      const key = `${options.includeFeaturedProjection !== false}|${options.includeEngagementProjection !== false}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = read(options, "populate").then((r) => r.read);
        inFlight.set(key, pending);
        const clear = () => inFlight.delete(key);
        pending.then(clear, clear);
      }
      return pending;
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
  const existing = await readStoreSheet(deps.db);
  if (existing) return 0;
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
