// Festival night behind a shared cache (docs/operations.md, "Behind a shared cache"): two service
// processes on one Postgres (BENCH_DATABASE_URL, default the local test server; one process on an
// in-memory PGlite when none answers) behind nginx proxy_cache, the picture test/helpers/edge.ts
// starts. wrk (one thread, on the load core) sends a mixed load: 90 % page and fragment hits over
// 24 popular URLs in French and English, 5 % searches (a new q= each: always a miss), 5 %
// tracking beacons. Prints the share of page and fragment requests the cache answered (goal
// ≥ 95 %), the requests per second that reached the origin, and p99 through the cache; then the
// same load sent straight to one instance (no cache) as the baseline. The answers are classified
// by the script's response() and summed by the shared wrk helper (bench/lib.ts).

import postgres from "postgres";
import { pinned, requireWrk, SERVER_CPU, wrk } from "./lib.ts";
import { startEdge } from "../test/helpers/edge.ts";

const SECONDS = Number(process.env.BENCH_EDGE_SECONDS ?? 10);

const POPULAR = [
  "/",
  "/?g=house",
  "/?g=jazz",
  "/?g=rock",
  "/?when=tonight",
  "/?pr=0%3A0",
  "/?arr=11",
  "/submit-event",
  "/feature-event",
  "/my-night",
  "/privacy",
  "/terms",
];

function luaString(value: string): string {
  return JSON.stringify(value);
}

/** The wrk script: picks each request and classifies each answer by its headers (counted by the helper). */
function mixedLoadScript(): string {
  const entries: string[] = [];
  for (const language of ["", "/en"]) {
    for (const path of POPULAR) {
      const url = `${language}${path === "/" ? "/" : path}`;
      entries.push(`{${luaString(url)}, false}`);
      if (path.startsWith("/?")) entries.push(`{${luaString(url)}, true}`);
    }
  }
  return `
local entries = { ${entries.join(", ")} }
local n = 0
pages, cached, searches, tracks, origin, other = 0, 0, 0, 0, 0, 0
request = function()
  n = n + 1
  local r = n % 100
  if r < 5 then
    return wrk.format("GET", "/?q=night" .. RUN .. "n" .. n, { ["HX-Request"] = "true" })
  elseif r < 10 then
    return wrk.format("POST", "/api/track", { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = "198.51.100." .. (n % 200) },
      '{"actionType":"modal_open","sessionId":"bench-' .. (n % 900) .. '","eventKey":"evt_bench","source":"bench"}')
  end
  local e = entries[(n % #entries) + 1]
  if e[2] then return wrk.format("GET", e[1], { ["HX-Request"] = "true" }) end
  return wrk.format("GET", e[1])
end
response = function(status, headers, body)
  local state = headers["X-Edge-Cache"] or headers["x-edge-cache"]
  local push = headers["hx-push-url"] or headers["HX-Push-Url"] or ""
  local kind = headers["content-type"] or headers["Content-Type"] or ""
  if string.find(push, "q=night", 1, true) then
    searches = searches + 1
    origin = origin + 1
  elseif string.find(kind, "text/html", 1, true) or string.find(kind, "manifest", 1, true) then
    pages = pages + 1
    if state == "HIT" or state == "STALE" or state == "UPDATING" or state == "REVALIDATED" then cached = cached + 1 else origin = origin + 1 end
  elseif status == 202 or status == 400 or status == 429 or status == 404 then
    tracks = tracks + 1
    origin = origin + 1
  else
    other = other + 1
    origin = origin + 1
  end
end
`;
}

interface EdgeFigures {
  pages: number;
  cached: number;
  searches: number;
  tracks: number;
  origin: number;
  requests: number;
  errors: number;
  p99Ms: number;
  rps: number;
}

async function runMixedLoad(url: string, label: string): Promise<EdgeFigures> {
  // Refused and limited beacons (400, 429) are part of the mix: errors allowed, counted apart.
  const r = await wrk(url, { script: mixedLoadScript(), counters: ["pages", "cached", "searches", "tracks", "origin", "other"], connections: 64, seconds: SECONDS, allowErrors: true, label });
  return { ...(r.counters as Omit<EdgeFigures, "requests" | "errors" | "p99Ms" | "rps">), requests: r.requests, errors: r.errors, p99Ms: r.p99, rps: r.rps };
}

async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

export async function benchEdge(): Promise<void> {
  requireWrk();
  const candidate = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const databaseUrl = (await postgresAnswers(candidate)) ? candidate : undefined;
  const edge = await startEdge({ databaseUrl, instances: 2, wrap: (command) => pinned(SERVER_CPU, command) });
  try {
    // Warm-up (discarded): fills the cache and the instances' render caches.
    await runMixedLoad(edge.url, "warm");
    const through = await runMixedLoad(edge.url, "1");
    const direct = await runMixedLoad(edge.services[0]!.url, "direct");
    const ratio = through.pages ? (100 * through.cached) / through.pages : 0;
    const picture = `${edge.services.length} instance(s) on ${edge.database}`;
    console.log(
      `${`edge: mixed festival night via nginx (${picture})`.padEnd(52)} ${through.rps.toFixed(0).padStart(7)} req/s  p99 ${through.p99Ms.toFixed(2).padStart(6)} ms  | cache answered ${ratio.toFixed(1)} % of ${through.pages} page/fragment requests (goal ≥ 95 %) | origin ${(through.origin / (through.requests / through.rps)).toFixed(0)} req/s (${through.searches} searches, ${through.tracks} tracking)${through.errors ? `  non-2xx/3xx ${through.errors} (tracking refused or limited)` : ""}`,
    );
    console.log(
      `${"edge: the same load straight to one instance".padEnd(52)} ${direct.rps.toFixed(0).padStart(7)} req/s  p99 ${direct.p99Ms.toFixed(2).padStart(6)} ms  | every request reaches the origin | ratio via cache / direct ${(through.rps / direct.rps).toFixed(2)}x${direct.errors ? `  non-2xx/3xx ${direct.errors}` : ""}`,
    );
  } finally {
    await edge.stop();
  }
}

if (import.meta.main) await benchEdge();
