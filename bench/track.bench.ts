// POST /api/track under festival load, on the real process (`bun src/index.ts`, production mode,
// DATA_MODE=remote) over a fresh database on the local Postgres server:
//   1. ≥ 50,000 valid interactions at concurrency 100 (client IPs and sessions varied so no limit
//      blocks), then the rows are counted: every accepted interaction recorded, none twice. Beside
//      it, the same load against an Elysia route that answers 202 without recording (its own
//      process, same run), as a ratio.
//   2. The same while the Postgres server restarts mid-run: every answer should still be 202; the
//      rows recorded and the ones the process reports dropped are printed.
// Before the load, BENCH_TRACK_ACTIVATIONS (default 3, the spotlight slots; a number or `all`)
// partner activations are made on the first event keys, windows covering the run, so the partner
// statistics rollup triggers count those keys' records as in service.
// Set BENCH_SKIP_PG_RESTART=1 to skip part 2 (it interrupts every other user of that server);
// BENCH_PROFILE_DIR=<dir> to get a CPU profile of the service. BENCH_SERVICE_ROOT=<dir> runs the
// service of another checkout (a before/after comparison on the same machine; with an older
// schema set BENCH_TRACK_ACTIVATIONS=0, since the activations need the paid orders table).

import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { pinned, report, SERVER_CPU, type LoadResult } from "./lib.ts";
import { freePort } from "../test/helpers/processes.ts";

const SERVER = "postgres://postgres@127.0.0.1:5432";
const ROOT = join(import.meta.dir, "..");
const TOTAL = 50_000;
const RESTART_TOTAL = 100_000;
const CONCURRENCY = 100;

interface Run extends LoadResult {
  statuses: Record<string, number>;
}

/** CPU seconds used so far by a process (Linux /proc), or 0 where unavailable. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every Postgres server process (Linux /proc). */
function postgresCpuSeconds(): number {
  let total = 0;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuSeconds(Number(entry));
      } catch {}
    }
  } catch {}
  return total;
}

/** CPU used by the service, Postgres and this client during `run`. */
async function withCpu<T>(servicePid: number, run: () => Promise<T>): Promise<{ result: T; cpu: string }> {
  const before = { service: cpuSeconds(servicePid), pg: postgresCpuSeconds(), client: process.cpuUsage() };
  const result = await run();
  const client = process.cpuUsage(before.client);
  const cpu = `service ${(cpuSeconds(servicePid) - before.service).toFixed(1)} s, postgres ${(postgresCpuSeconds() - before.pg).toFixed(1)} s (ended backends not counted), client ${((client.user + client.system) / 1e6).toFixed(1)} s`;
  return { result, cpu };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A closed-loop load of `total` requests (bounded in count and time), statuses counted. */
export async function drive(makeRequest: (i: number) => Request, total: number, options: { deadlineMs?: number; onProgress?: (sent: number) => void } = {}): Promise<Run> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + (options.deadlineMs ?? 180_000);
  async function worker() {
    while (sent < total && performance.now() < deadline) {
      const i = sent++;
      options.onProgress?.(i);
      const t0 = performance.now();
      try {
        const res = await fetch(makeRequest(i));
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status !== 202) errors++;
      } catch {
        statuses.network = (statuses.network ?? 0) + 1;
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), statuses };
}

/** The real service as a child process, with its log lines kept. */
export function startService(databaseUrl: string, port: number, extraEnv: Record<string, string> = {}) {
  const lines: string[] = [];
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the service (markdown) there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const proc = Bun.spawn(pinned(SERVER_CPU, [process.execPath, ...profile, "src/index.ts"]), {
    cwd: process.env.BENCH_SERVICE_ROOT ?? ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      // The load generator names its simulated clients in X-Forwarded-For from loopback.
      TRUSTED_PROXIES: "loopback",
      DATA_MODE: "remote",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: randomBytes(24).toString("hex"),
      PORT: String(port),
      HOST: "127.0.0.1",
      CRON_ENABLED: "false",
      DATA_DIR: `/tmp/finder-bench-${process.pid}`,
      ...extraEnv,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    }
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  return { proc, lines };
}

export async function waitForHealth(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`no answer from ${url}`);
}

/** Polls the row count of a prefix until it reaches `expected` or stops moving (bounded). */
async function settledCount(sql: postgres.Sql, prefix: string, expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    let n = last;
    try {
      [{ n }] = await sql<{ n: number }[]>`select count(*)::int n from engagement_interactions where path like ${prefix + "%"}`;
    } catch {}
    if (n >= expected || Date.now() > deadline) return n;
    if (n !== last) {
      last = n;
      stableSince = Date.now();
    } else if (Date.now() - stableSince > 5_000) return n;
    await Bun.sleep(200);
  }
}

async function rowsOf(sql: postgres.Sql, prefix: string): Promise<{ rows: number; distinct: number }> {
  const [r] = await sql<{ rows: number; distinct: number }[]>`select count(*)::int rows, count(distinct path)::int distinct from engagement_interactions where path like ${prefix + "%"}`;
  return r;
}

/** The last "Write-behind queue closed" stats of the engagement queue, from the service's log. */
export function closedStats(lines: string[]): Record<string, unknown> | undefined {
  for (const line of [...lines].reverse()) {
    try {
      const entry = JSON.parse(line);
      if (entry.message === "Write-behind queue closed" && entry.context?.name === "engagement") return entry.context;
    } catch {}
  }
  return undefined;
}

export function trackRequest(url: string, keys: string[], prefix: string, ipBase: number) {
  const actions = ["click", "click", "click", "outbound_click", "calendar_sync"];
  return (i: number) =>
    new Request(url, {
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": `10.${ipBase}.${(i % 4000) >> 8}.${i % 4000 & 255}` },
      body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: actions[i % actions.length], sessionId: `bench-${ipBase}-${i % 5000}`, source: "event_open", path: `${prefix}${i}` }),
    });
}

/** Requests of one client (one IP, one session): past the limits after the first few hundred. */
function limitedRequest(url: string, keys: string[], prefix: string) {
  return (i: number) =>
    new Request(url, {
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": "10.250.0.1" },
      body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: "click", sessionId: "bench-limited", source: "event_open", path: `${prefix}${i}` }),
    });
}

export async function stopProcess(proc: ReturnType<typeof Bun.spawn>, timeoutMs = 20_000): Promise<number | null> {
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited, Bun.sleep(timeoutMs).then(() => null)]);
  if (exited === null) proc.kill("SIGKILL");
  return exited;
}

export async function benchTrack(): Promise<void> {
  const dbName = `finder_bench_${process.pid}`;
  const admin = postgres(`${SERVER}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const databaseUrl = `${SERVER}/${dbName}`;
  const port = freePort();
  const basePort = freePort();
  const service = startService(databaseUrl, port);
  const baseline = Bun.spawn(pinned(SERVER_CPU, [process.execPath, "bench/track-baseline.server.ts", String(basePort)]), { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const serviceUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(`${serviceUrl}/api/health`);
    const { events } = (await (await fetch(`${serviceUrl}/api/events`)).json()) as { events: { eventKey: string }[] };
    const keys = events.map((e) => e.eventKey);
    const wanted = process.env.BENCH_TRACK_ACTIVATIONS ?? "3";
    const activated = keys.slice(0, wanted === "all" ? keys.length : Number(wanted));
    for (const key of activated) {
      await sql`insert into paid_orders (source, source_event_id, status, fulfilled_event_key, fulfilled_tier, fulfilled_start_at, fulfilled_end_at, partner_stats_token_hash, activated_at)
        values ('manual-test', ${`manual-test-${crypto.randomUUID()}`}, 'activated', ${key}, 'spotlight', now() - interval '1 hour', now() + interval '2 days', ${crypto.randomUUID().replaceAll("-", "")}, now())`;
    }
    console.log(`  ${activated.length} of ${keys.length} event keys have a partner activation`);
    const baselineUrl = `http://127.0.0.1:${basePort}/api/track`;
    for (let i = 0; i < 50 && !(await fetch(baselineUrl, { method: "POST", body: "{}" }).then((r) => r.ok, () => false)); i++) await Bun.sleep(100);

    // Warm-up both (JIT, connection pools, the live catalog), then measure both in the same run.
    await drive(trackRequest(baselineUrl, keys, "/bench/warm/", 1), 5_000);
    await drive(trackRequest(`${serviceUrl}/api/track`, keys, "/bench/warm/", 1), 5_000);
    const { result: base, cpu: baseCpu } = await withCpu(baseline.pid, () => drive(trackRequest(baselineUrl, keys, "/bench/base/", 2), TOTAL));
    const { result: subject, cpu } = await withCpu(service.proc.pid, () => drive(trackRequest(`${serviceUrl}/api/track`, keys, "/bench/main/", 3), TOTAL));
    // The mostly rate-limited path: one client (one IP, one session) past its limits, so all but
    // the first few hundred requests are answered 202 by the in-memory limiter and not recorded.
    const { result: limited, cpu: limitedCpu } = await withCpu(service.proc.pid, () => drive(limitedRequest(`${serviceUrl}/api/track`, keys, "/bench/limited/"), TOTAL));
    const { result: baseAfter } = await withCpu(baseline.pid, () => drive(trackRequest(baselineUrl, keys, "/bench/base2/", 5), TOTAL));
    const baseAveraged = { ...base, rps: (base.rps + baseAfter.rps) / 2, p99: (base.p99 + baseAfter.p99) / 2 };
    report(`POST /api/track ${TOTAL} req, c=${CONCURRENCY} (real process, Postgres) vs 202-only Elysia`, subject, baseAveraged);
    console.log(`  cpu during the run: ${cpu}`);
    console.log(`  cpu during the baseline: ${baseCpu.replace("service", "baseline server")}`);
    report(`POST /api/track rate-limited (one client) vs 202-only Elysia`, limited, baseAveraged);
    console.log(`  cpu during the limited run: ${limitedCpu}; baseline runs ${base.rps.toFixed(0)} and ${baseAfter.rps.toFixed(0)} req/s`);
    const accepted = subject.statuses["202"] ?? 0;
    const recorded = await settledCount(sql, "/bench/main/", accepted, 30_000);
    const { rows, distinct } = await rowsOf(sql, "/bench/main/");
    console.log(
      `  rows: ${accepted} accepted (202), ${rows} recorded, ${rows - distinct} duplicated, ${accepted - distinct} missing -> ${recorded === accepted && rows === distinct ? "OK" : "MISMATCH"}`,
    );

    if (process.env.BENCH_SKIP_PG_RESTART === "1") {
      console.log("  Postgres restart run skipped (BENCH_SKIP_PG_RESTART=1)");
      return;
    }
    let restart: Promise<string> | undefined;
    const restartAt = Math.floor(RESTART_TOTAL / 5);
    const during = await drive(trackRequest(`${serviceUrl}/api/track`, keys, "/bench/restart/", 4), RESTART_TOTAL, {
      onProgress: (i) => {
        if (i !== restartAt) return;
        const started = performance.now();
        restart = (async () => {
          const versions = Array.from(new Bun.Glob("*").scanSync({ cwd: "/etc/postgresql", onlyFiles: false }));
          const proc = Bun.spawn(["pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", "restart"], { stdout: "ignore", stderr: "pipe" });
          const code = await proc.exited;
          return `exit ${code} after ${(performance.now() - started).toFixed(0)} ms`;
        })();
      },
    });
    const restartOutcome = restart ? await restart : "not triggered";
    const answered202 = during.statuses["202"] ?? 0;
    console.log(
      `POST /api/track ${RESTART_TOTAL} req with a Postgres restart (${restartOutcome}): ${during.rps.toFixed(0)} req/s, p99 ${during.p99.toFixed(2)} ms, statuses ${JSON.stringify(during.statuses)}`,
    );
    // Reconnect, let the backlog drain, then stop the service so its queues report their totals.
    await sql.end({ timeout: 5 });
    const after = postgres(databaseUrl, { max: 2, onnotice: () => {} });
    try {
      for (let i = 0; i < 100; i++) {
        try {
          await after`select 1`;
          break;
        } catch {
          await Bun.sleep(200);
        }
      }
      await settledCount(after, "/bench/restart/", answered202, 60_000);
      await stopProcess(service.proc);
      const { rows: restartRows, distinct: restartDistinct } = await rowsOf(after, "/bench/restart/");
      const stats = closedStats(service.lines);
      const failures = service.lines.filter((l) => l.includes("rows kept for retry") || l.includes("dropping interactions") || l.includes("recovered")).length;
      console.log(
        `  rows: ${answered202} answered 202, ${restartRows} recorded, ${restartRows - restartDistinct} duplicated, ${answered202 - restartDistinct} not recorded; engagement queue at shutdown ${JSON.stringify(stats ?? {})}; ${failures} outage log lines`,
      );
    } finally {
      await after.end({ timeout: 5 });
    }
  } finally {
    await stopProcess(service.proc);
    baseline.kill("SIGTERM");
    await baseline.exited;
    await sql.end({ timeout: 2 }).catch(() => {});
    for (let i = 0; i < 50; i++) {
      try {
        await admin.unsafe(`drop database if exists ${dbName} with (force)`);
        break;
      } catch {
        await Bun.sleep(200);
      }
    }
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.main) {
  await benchTrack();
  process.exit(0);
}
