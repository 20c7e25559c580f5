// The read pipeline over a 2,000-row sheet, and GET /api/events throughput, each beside a baseline
// measured in the same run.

import Papa from "papaparse";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { saveStoreSheet } from "../src/lib/store/store.ts";
import { filterEvents } from "../src/lib/events/filter-match.ts";
import { parseFilters } from "../src/lib/events/filter-query.ts";
import { load, report } from "./lib.ts";

const GENRES = ["House", "Afrobeats / Amapiano", "R&B, Hip Hop", "Techno", "Dancehall", "Zouk / Kompa", "Disco, Funk"];

/** A realistic 2,000-row sheet in the canonical layout. */
export function bigSheet(rows = 2000): string {
  const lines = ["Title,Curated,Date,Date To,Start Time,End Time,Host Country,Location,Area,Price,Categories,Primary URL,Age Guidance,Setting,Audience Country,Event Category,Notes,Tags,Series Key,Event Key"];
  for (let i = 0; i < rows; i++) {
    const day = 19 + (i % 4);
    lines.push(
      [`Event ${i} at venue ${i % 300}`, i % 9 === 0 ? "Yes" : "", `2026-06-${day}`, "", `${12 + (i % 12)}:00`, `${(i % 6) + 1}:00`, i % 3 ? "FR" : "UK", `Venue ${i % 300}`, String((i % 20) + 1), i % 4 ? `€${i % 40}` : "Free", `"${GENRES[i % GENRES.length]}"`, `https://t${i}.example/e`, i % 2 ? "18+" : "All ages", i % 2 ? "Indoor" : "Outdoor", "", "party", `"Notes for ${i}, with a comma"`, "", "", ""].join(","),
    );
  }
  return lines.join("\n") + "\n";
}

function time(label: string, runs: number, fn: () => unknown | Promise<unknown>) {
  return async () => {
    await fn();
    const started = performance.now();
    for (let i = 0; i < runs; i++) await fn();
    const ms = (performance.now() - started) / runs;
    return { label, ms };
  };
}

export async function benchEvents(): Promise<void> {
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "remote", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false" });
  const deps = await buildDeps(config, { log: createMemoryLogger() });
  const csv = bigSheet();
  const saved = await saveStoreSheet(deps.db, csv, { updatedBy: "system", origin: "manual", now: new Date() });
  if (!saved.ok) throw new Error(saved.error);

  // Pipeline: store read + parse + normalise + coordinates + projections, against papaparse alone on the same CSV.
  const baseline = await time("papaparse only", 10, () => Papa.parse(csv))();
  const pipeline = await time("live read", 10, () => deps.events.load())();
  const filters = parseFilters({ g: "house", dn: "night", q: "venue 1" });
  const events = (await deps.events.load()).events;
  const filtering = await time("filter", 50, () => filterEvents(events, filters))();
  console.log(`${"read pipeline, 2,000-row sheet".padEnd(44)} ${pipeline.ms.toFixed(1).padStart(7)} ms/read | baseline papaparse of the same CSV ${baseline.ms.toFixed(1)} ms | ratio ${(pipeline.ms / baseline.ms).toFixed(1)}x the parse alone`);
  console.log(`${"filter + search over 2,000 events".padEnd(44)} ${filtering.ms.toFixed(2).padStart(7)} ms/call`);

  // API: cached /api/events against a bare Bun.serve sending the same bytes.
  const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const appUrl = `http://127.0.0.1:${app.server!.port}/api/events?g=house`;
  const raw = { decompress: false } as RequestInit;
  const warm = await fetch(appUrl, { headers: { "accept-encoding": "br" }, ...raw });
  const bytes = new Uint8Array(await warm.arrayBuffer());
  const encoding = warm.headers.get("content-encoding") ?? "identity";
  const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(bytes, { headers: { "content-type": "application/json", "content-encoding": encoding } }) });
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  const opts = { total: 10000, concurrency: 50, expectStatus: 200, init: raw };
  const req = (url: string) => () => new Request(url, { headers: { "accept-encoding": "br" } });
  await load(req(bareUrl), { ...opts, total: 1000 });
  const base = await load(req(bareUrl), opts);
  const subject = await load(req(appUrl), opts);
  report("GET /api/events?g=house (cached, 2,000 rows)", subject, base);
  bare.stop(true);
  await app.stop(true);
  await deps.shutdown();
}
