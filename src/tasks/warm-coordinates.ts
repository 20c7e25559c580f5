// Hourly coordinate warm-up: live reads never call the geocoder, so venues added outside a publish
// (or estimates whose back-off has passed) are geocoded here (see docs/live-events.md, "Warm-up").

import type { Deps } from "../deps.ts";
import { warmCoordinatesNow, type CoordinateWarmUp } from "../lib/events/publish.ts";

/** Runs one warm-up; the homepage is revalidated when a position changed. */
export function warmCoordinatesTask(deps: Deps): Promise<CoordinateWarmUp> {
  return warmCoordinatesNow(deps);
}

/** The cron endpoint's answer: the warm-up counts. */
export function warmCoordinatesReport(result: CoordinateWarmUp): Record<string, unknown> {
  return { source: result.source, changed: result.changed, durationMs: result.durationMs, ...result.counts };
}
