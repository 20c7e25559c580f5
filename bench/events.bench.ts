// The read pipeline over a 2,000-row sheet (timed in this process: a function, not a server), and
// GET /api/events throughput from the app in its own process beside bare servers sending the same
// bytes (with four headers, and with every header the app sent), load from wrk.

import Papa from "papaparse";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { saveStoreSheet } from "../src/lib/store/store.ts";
import { filterEvents } from "../src/lib/events/filter-match.ts";
import { parseFilters } from "../src/lib/events/filter-query.ts";
import { bigSheet } from "./fixtures.ts";
import { at, compareWithTwins, startServer, LISTED_AT } from "./lib.ts";

function time(label: string, runs: number, fn: () => unknown | Promise<unknown>) {
  return async () => {
    await fn();
    const started = performance.now();
    for (let i = 0; i < runs; i++) await fn();
    const ms = (performance.now() - started) / runs;
    return { label, ms };
  };
}

async function benchPipeline(): Promise<void> {
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "remote", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false" });
  const deps = await buildDeps(config, { log: createMemoryLogger() });
  try {
    const csv = bigSheet();
    const saved = await saveStoreSheet(deps.db, csv, { updatedBy: "system", origin: "manual", now: new Date() });
    if (!saved.ok) throw new Error(saved.error);
    // Pipeline: store read + build + coordinates + projections, against papaparse alone on the same CSV.
    const baseline = await time("papaparse only", 10, () => Papa.parse(csv))();
    const pipeline = await time("live read", 10, () => deps.events.load())();
    const filters = parseFilters({ g: "house", dn: "night", q: "venue 1" });
    const events = (await deps.events.load()).events;
    const filtering = await time("filter", 50, () => filterEvents(events, filters))();
    console.log(`${"read pipeline, 2,000-row sheet".padEnd(52)} ${pipeline.ms.toFixed(1).padStart(7)} ms/read | baseline papaparse of the same CSV ${baseline.ms.toFixed(1)} ms | ratio ${(pipeline.ms / baseline.ms).toFixed(1)}x the parse alone`);
    console.log(`${"filter + search over 2,000 events".padEnd(52)} ${filtering.ms.toFixed(2).padStart(7)} ms/call`);
  } finally {
    await deps.shutdown();
  }
}

export async function benchEvents(): Promise<void> {
  await benchPipeline();
  const app = await startServer("servers/app.server.ts", [JSON.stringify({ dataMode: "remote", seed: 2000, at: LISTED_AT })]);
  try {
    await compareWithTwins("GET /api/events?g=house (cached, 2,000 rows)", at(app, "/api/events?g=house"), { "accept-encoding": "br" });
  } finally {
    await app.stop();
  }
}
