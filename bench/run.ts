// Runs every benchmark; each prints its figure beside a baseline measured in the same run.
// Optional filter: `npm run bench -- health` runs only the benchmarks whose name contains "health".
// Servers run in processes of their own on core 0; wrk drives the HTTP load from core 1 (bench/lib.ts).
// It installs nothing: without wrk the HTTP benchmarks stop at once, naming the package.

import { benchHealth } from "./health.bench.ts";
import { benchEvents } from "./events.bench.ts";
import { benchOg } from "./og.bench.ts";
import { benchHome } from "./home.bench.ts";
import { benchAdminGuard } from "./admin-guard.bench.ts";
import { benchTrack } from "./track.bench.ts";
import { benchTrackCrash } from "./track-crash.bench.ts";
import { benchTrackOutage } from "./track-outage.bench.ts";
import { benchColdStart } from "./cold-start.bench.ts";
import { benchHardening } from "./hardening.bench.ts";
import { benchSheetEditor } from "./sheet-editor.bench.ts";
import { benchInsights } from "./insights.bench.ts";
import { benchPartnerStats } from "./partner-stats.bench.ts";
import { benchSearch } from "./search.bench.ts";
import { benchFirstLoad } from "./first-load.bench.ts";
import { benchEdge } from "./edge.bench.ts";
import { LOAD_CPU, pinSelf, requireWrk } from "./lib.ts";

const benches: Record<string, () => Promise<void>> = {
  health: benchHealth,
  events: benchEvents,
  og: benchOg,
  home: benchHome,
  "admin-guard": benchAdminGuard,
  track: benchTrack,
  "track-crash": benchTrackCrash,
  "track-outage": benchTrackOutage,
  "cold-start": benchColdStart,
  hardening: benchHardening,
  "sheet-editor": benchSheetEditor,
  insights: benchInsights,
  "partner-stats": () => benchPartnerStats(),
  search: benchSearch,
  "first-load": benchFirstLoad,
  edge: benchEdge,
};

/** The benchmarks whose load comes from wrk; the others time functions, starts, a browser, or (track-crash) match each answered request to its row. */
const NEEDS_WRK = new Set(["health", "events", "og", "home", "admin-guard", "track", "track-outage", "hardening", "edge"]);

// What this process does itself (polling, the fuzz, the crash and outage floods) stays off the servers' core.
pinSelf(LOAD_CPU);

const filter = process.argv[2];
const selected = Object.entries(benches).filter(([name]) => !filter || name.includes(filter));
if (selected.some(([name]) => NEEDS_WRK.has(name))) {
  try {
    requireWrk();
  } catch (error) {
    console.error(`npm run bench: ${(error as Error).message}`);
    process.exit(1);
  }
}
for (const [, run] of selected) await run();
process.exit(0);
