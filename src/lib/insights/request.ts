// Reading the dashboard's query parameters and the live event names, shared by the console page
// and the admin JSON API.

import { invalid, type Invalid } from "../outcome.ts";
import type { EventReader } from "../events/pipeline.ts";
import type { Logger } from "../logger.ts";
import { parseClusterMode, type ClusterMode } from "./clustering.ts";
import { parseWindowDays } from "./window.ts";

/** The dashboard parameters once read. */
export interface InsightsQuery {
  windowDays: number;
  cluster: ClusterMode;
}

/** Reads windowDays (clamped 1–365, default 30) and cluster (conservative|aggressive); refused as invalid otherwise. */
export function readInsightsQuery(query: Record<string, unknown>): InsightsQuery | Invalid {
  const issues: { field: string; message: string }[] = [];
  const window = parseWindowDays(query.windowDays);
  if (!window.ok) issues.push({ field: "windowDays", message: window.error });
  const cluster = parseClusterMode(query.cluster);
  if (!cluster) issues.push({ field: "cluster", message: "cluster must be conservative or aggressive" });
  if (issues.length > 0 || !window.ok || !cluster) return invalid("Invalid insights parameters", issues);
  return { windowDays: window.windowDays, cluster };
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
