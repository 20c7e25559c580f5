// The live catalog the tracking endpoint checks event keys against (see docs/tracking.md, "Live
// catalog"): the set of lower-cased eventKeys of a raw live read (no projections), kept in memory
// for 5 minutes. One read at a time fills it; a failed read is not cached, and for a second after a
// failure the catalog answers "unknown" without reading again, so a failing store is not hammered.

import type { Logger } from "../logger.ts";

/** How long a successful read is used: 5 minutes. */
export const LIVE_CATALOG_TTL_MS = 5 * 60 * 1000;
const RETRY_AFTER_FAILURE_MS = 1000;

export interface LiveCatalogOptions {
  /** Reads the current event keys (any case). */
  load: () => Promise<Iterable<string>>;
  log: Logger;
  /** Clock in milliseconds (tests move it). */
  now: () => number;
  ttlMs?: number;
}

export interface LiveCatalog {
  /**
   * True or false when the catalog is known; undefined when it could not be read. Answers
   * synchronously while the cached set is fresh (the hot path), with a promise when it must read.
   */
  has(eventKey: string): boolean | undefined | Promise<boolean | undefined>;
  /** Forgets the cached set (a publish changed the events); the next check reads again. */
  invalidate(): void;
}

/** Builds the catalog over a key loader. */
export function createLiveCatalog(options: LiveCatalogOptions): LiveCatalog {
  const ttl = options.ttlMs ?? LIVE_CATALOG_TTL_MS;
  let keys: Set<string> | undefined;
  let loadedAt = 0;
  let failedAt = -Infinity;
  let loading: Promise<Set<string> | undefined> | undefined;
  let epoch = 0;

  function reload(): Promise<Set<string> | undefined> {
    if (loading) return loading;
    const startedEpoch = epoch;
    loading = (async () => {
      try {
        const set = new Set<string>();
        for (const key of await options.load()) set.add(key.toLowerCase());
        // An invalidation during the read wins: use the result once, do not keep it.
        if (startedEpoch === epoch) {
          keys = set;
          loadedAt = options.now();
        }
        return set;
      } catch (error) {
        failedAt = options.now();
        options.log.warn("tracking", "Live catalog read failed; interactions are not recorded until it succeeds", undefined, error);
        return undefined;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  return {
    has(eventKey) {
      const now = options.now();
      if (keys && now - loadedAt < ttl) return keys.has(eventKey.toLowerCase());
      if (!loading && now - failedAt < RETRY_AFTER_FAILURE_MS) return undefined;
      return reload().then((set) => (set ? set.has(eventKey.toLowerCase()) : undefined));
    },
    invalidate() {
      epoch++;
      keys = undefined;
      failedAt = -Infinity;
    },
  };
}
