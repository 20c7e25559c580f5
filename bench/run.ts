// Runs every benchmark; each prints its figure beside a baseline measured in the same run.
// Optional filter: `npm run bench -- health` runs only the benchmarks whose name contains "health".
// Servers run in processes of their own on one core; this process and wrk generate load on the other.

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
import { LOAD_CPU, pinSelf } from "./lib.ts";

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

// The load this process generates itself stays off the servers' core.
pinSelf(LOAD_CPU);

const filter = process.argv[2];
for (const [name, run] of Object.entries(benches)) {
  if (filter && !name.includes(filter)) continue;
  await run();
}
process.exit(0);
