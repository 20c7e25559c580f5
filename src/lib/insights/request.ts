// Reading the dashboard's query parameters and the live event names, shared by the console page
// and the admin JSON API.

import { invalid, type Invalid } from "../outcome.ts";
import type { EventReader } from "../events/pipeline.ts";
import type { Logger } from "../logger.ts";
import { parseClusterMode, type ClusterMode } from "./clustering.ts";
import { parseWindowDays, windowEndingAt, type InsightsWindow } from "./window.ts";
import { currentEdition, editionOf, type Edition, type EditionWindows } from "../events/editions.ts";
import { editionWindow, parseEditionYear } from "./editions.ts";

/** The dashboard parameters once read. */
export interface InsightsQuery {
  windowDays: number;
  cluster: ClusterMode;
  /** The edition whose window is read instead of the last windowDays (docs/insights.md, "Editions"). */
  edition?: number;
}

/** Reads windowDays (clamped 1–365, default 30), cluster (conservative|aggressive) and edition (a year, 2000–2100); refused as invalid otherwise. */
export function readInsightsQuery(query: Record<string, unknown>): InsightsQuery | Invalid {
  const issues: { field: string; message: string }[] = [];
  const window = parseWindowDays(query.windowDays);
  if (!window.ok) issues.push({ field: "windowDays", message: window.error });
  const cluster = parseClusterMode(query.cluster);
  if (!cluster) issues.push({ field: "cluster", message: "cluster must be conservative or aggressive" });
  const edition = parseEditionYear(query.edition);
  if (!edition.ok) issues.push({ field: "edition", message: edition.error });
  if (issues.length > 0 || !window.ok || !cluster || !edition.ok) return invalid("Invalid insights parameters", issues);
  return { windowDays: window.windowDays, cluster, ...(edition.edition !== undefined ? { edition: edition.edition } : {}) };
}

/** The window the query asks for at `now`: its edition's window (lead-up and days), else the last windowDays days. */
export function insightsWindowOf(query: Pick<InsightsQuery, "windowDays" | "edition">, now: Date, windows: EditionWindows): InsightsWindow {
  return query.edition !== undefined ? editionWindow(editionOf(query.edition, windows), now) : windowEndingAt(now, query.windowDays);
}

/** The edition the comparison is about: the query's, else the current edition at `now`. */
export function comparedEdition(query: Pick<InsightsQuery, "edition">, now: Date, windows: EditionWindows): Edition {
  return query.edition !== undefined ? editionOf(query.edition, windows) : currentEdition(now, windows);
}

/**
 * Live event names by lower-cased key, from a raw live read (no projections). When no source
 * can be read the map is empty and the table shows keys instead of names.
 */
export async function liveEventNames(deps: { events: EventReader; log: Logger }): Promise<Map<string, string>> {
  try {
    const read = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
    return new Map(read.events.map((e) => [e.eventKey.toLowerCase(), e.eventName]));
  } catch (error) {
    deps.log.warn("insights", "Live event names unavailable; showing keys", undefined, error);
    return new Map();
  }
}
