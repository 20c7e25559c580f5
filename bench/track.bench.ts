// POST /api/track under festival load, on the real process (`bun src/index.ts`, DATA_MODE=remote),
// first on its embedded PGlite, then on a fresh database of a Postgres server (BENCH_DATABASE_URL's
// server, else the local one at 127.0.0.1:5432 when it answers). The load comes from wrk on the
// other core (bench/lib.ts), its requests written as data:
//   - the recorded path: distinct clients (16,384 addresses, 16,000 sessions, so no limit blocks),
//     every request a new path; afterwards the rows are counted: none twice, and between the
//     requests answered and those sent (wrk stops with some in flight), else MISMATCH;
//   - the rate-limited path: one client (one IP, one session) past its limits, so all but the first
//     few hundred requests are answered 202 by the in-memory limiter and not recorded.
// Both beside an Elysia route that answers 202 without recording (bench/track-baseline.server.ts,
// its own process on the same core), measured before and after them, warm-ups discarded.
// Then, on Postgres, the same load while the Postgres server restarts mid-run: the answers by
// status, the rows recorded and those the process reports dropped.
// Before the load, BENCH_TRACK_ACTIVATIONS (default 3, the spotlight slots; a number or `all`)
// partner activations are made on the first event keys, windows covering the run, so the partner
// statistics rollup triggers count those keys' records as in service.
// Set BENCH_SKIP_PG_RESTART=1 to skip the restart (it interrupts every other user of that server);
// BENCH_PROFILE_DIR=<dir> to get a CPU profile of the service. With an older schema set
// BENCH_TRACK_ACTIVATIONS=0, since the activations need the paid orders table.

import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareMany, pinned, ROOT, SERVER_CPU, wrk, type WrkRequest } from "./lib.ts";
import { freePort } from "../test/helpers/processes.ts";

const DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432";
const CONNECTIONS = 100;
const RESTART_SECONDS = 10;
const ACTIONS = ["click", "click", "click", "outbound_click", "calendar_sync"];

/**
 * The real service (`bun src/index.ts`) as a child process pinned to the server core, with its log
 * lines kept. On a Postgres database in production mode; without one on its embedded PGlite in
 * DATA_DIR, in development mode (production requires a database server), logging at info as in
 * production.
 */
export function startService(databaseUrl: string | undefined, port: number, extraEnv: Record<string, string> = {}) {
  const lines: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "finder-bench-track-"));
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the service (markdown) there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const proc = Bun.spawn(pinned(SERVER_CPU, [process.execPath, ...profile, "src/index.ts"]), {
    cwd: process.env.BENCH_SERVICE_ROOT ?? ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: databaseUrl ? "production" : "development",
      // The load generator names its simulated clients in X-Forwarded-For from loopback.
      TRUSTED_PROXIES: "loopback",
      DATA_MODE: "remote",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: "info",
      AUTH_SECRET: randomBytes(24).toString("hex"),
      PORT: String(port),
      HOST: "127.0.0.1",
      CRON_ENABLED: "false",
      DATA_DIR: dataDir,
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
  return { proc, lines, dataDir };
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

/**
 * The recorded path's requests as data: distinct clients (`ipBase` names the run's address block),
 * every request a new path under `prefix` (`{run}` and `{n}` filled by the wrk helper).
 */
export function trackRequests(keys: string[], prefix: string, ipBase: number): WrkRequest[] {
  return Array.from({ length: keys.length * ACTIONS.length }, (_, i) => ({
    method: "POST",
    path: "/api/track",
    headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": `10.${ipBase}.{n/256%64}.{n%256}` },
    body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: ACTIONS[Math.floor(i / keys.length) % ACTIONS.length], sessionId: `bench-${ipBase}-{n%16000}`, source: "event_open", path: `${prefix}{n}` }),
  }));
}

/** Requests of one client (one IP, one session): past the limits after the first few hundred. */
function limitedRequests(keys: string[], prefix: string): WrkRequest[] {
  return keys.map((key) => ({
    method: "POST",
    path: "/api/track",
    headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": "10.250.0.1" },
    body: JSON.stringify({ eventKey: key, actionType: "click", sessionId: "bench-limited", source: "event_open", path: `${prefix}{n}` }),
  }));
}

/** Counts rows of a prefix on PGlite: the service stopped first (its shutdown flushes the queues). */
async function pgliteRows(dataDir: string, prefix: string): Promise<{ rows: number; distinct: number }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create({ dataDir: join(dataDir, "pgdata") });
  try {
    const { rows } = await db.query<{ rows: number; distinct: number }>(`select count(*)::int "rows", count(distinct path)::int "distinct" from engagement_interactions where path like $1`, [`${prefix}%`]);
    return rows[0]!;
  } finally {
    await db.close();
  }
}

/** Whether a Postgres server answers at this URL. */
async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** The server of BENCH_DATABASE_URL (or the local default), without a database name, when it answers. */
async function postgresServer(): Promise<string | undefined> {
  const given = process.env.BENCH_DATABASE_URL;
  let server = DEFAULT_SERVER;
  if (given) {
    const url = new URL(given);
    url.pathname = "";
    url.search = "";
    server = url.toString().replace(/\/$/, "");
  }
  return (await answers(`${server}/postgres`)) ? server : undefined;
}

/** Stops a process with SIGTERM (its queues flush), SIGKILL after `timeoutMs`; its exit code, or null. */
export async function stopProcess(proc: ReturnType<typeof Bun.spawn>, timeoutMs = 20_000): Promise<number | null> {
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited, Bun.sleep(timeoutMs).then(() => null)]);
  if (exited === null) proc.kill("SIGKILL");
  return exited;
}

/** One engine: the service on it beside the 202-only baseline, both paths, then the rows. */
async function benchTrackOn(engine: "PGlite" | "Postgres", server: string | undefined): Promise<void> {
  const dbName = `finder_bench_${process.pid}`;
  const admin = server ? postgres(`${server}/postgres`, { max: 1, onnotice: () => {} }) : undefined;
  if (admin) await admin.unsafe(`create database ${dbName}`);
  const databaseUrl = server ? `${server}/${dbName}` : undefined;
  const port = freePort();
  const basePort = freePort();
  const service = startService(databaseUrl, port);
  const baseline = Bun.spawn(pinned(SERVER_CPU, [process.execPath, join(import.meta.dir, "track-baseline.server.ts"), String(basePort)]), { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  const sql = databaseUrl ? postgres(databaseUrl, { max: 2, onnotice: () => {} }) : undefined;
  let stopped = false;
  try {
    const serviceUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(`${serviceUrl}/api/health`, 60_000);
    const { events } = (await (await fetch(`${serviceUrl}/api/events`)).json()) as { events: { eventKey: string }[] };
    const keys = events.map((e) => e.eventKey);
    if (sql) {
      const wanted = process.env.BENCH_TRACK_ACTIVATIONS ?? "3";
      const activated = keys.slice(0, wanted === "all" ? keys.length : Number(wanted));
      for (const key of activated) {
        await sql`insert into paid_orders (source, source_event_id, status, fulfilled_event_key, fulfilled_tier, fulfilled_start_at, fulfilled_end_at, partner_stats_token_hash, activated_at)
          values ('manual-test', ${`manual-test-${crypto.randomUUID()}`}, 'activated', ${key}, 'spotlight', now() - interval '1 hour', now() + interval '2 days', ${crypto.randomUUID().replaceAll("-", "")}, now())`;
      }
      console.log(`  ${activated.length} of ${keys.length} event keys have a partner activation`);
    }
    const baselineUrl = `http://127.0.0.1:${basePort}`;
    for (let i = 0; i < 100 && !(await fetch(`${baselineUrl}/api/track`, { method: "POST", body: "{}" }).then((r) => r.ok, () => false)); i++) await Bun.sleep(100);

    const [recorded] = await compareMany(
      [
        { name: `POST /api/track every request recorded (real process, ${engine}) vs 202-only Elysia`, target: { url: serviceUrl, serverPid: service.proc.pid, requests: trackRequests(keys, "/bench/rec-{run}/", 3) } },
        { name: `POST /api/track rate-limited, one client (real process, ${engine}) vs 202-only Elysia`, target: { url: serviceUrl, serverPid: service.proc.pid, requests: limitedRequests(keys, "/bench/lim-{run}/") } },
      ],
      { url: baselineUrl, serverPid: baseline.pid, requests: trackRequests(keys, "/bench/base-{run}/", 2) },
      { connections: CONNECTIONS },
    );
    const accepted = recorded!.subject.requests;
    const sent = recorded!.subject.sent ?? accepted;
    const prefix = "/bench/rec-1/";
    let counted: { rows: number; distinct: number };
    if (sql) {
      await settledCount(sql, prefix, accepted, 30_000);
      counted = await rowsOf(sql, prefix);
    } else {
      await stopProcess(service.proc);
      stopped = true;
      counted = await pgliteRows(service.dataDir, prefix);
    }
    const { rows, distinct } = counted;
    const ok = rows === distinct && distinct >= accepted && distinct <= sent;
    console.log(`  rows: ${accepted} answered 202, ${sent} sent (${sent - accepted} in flight when wrk stopped), ${rows} recorded, ${rows - distinct} duplicated -> ${ok ? "OK" : "MISMATCH"}`);
    if (!ok) process.exitCode = 1;

    if (!sql) return;
    if (process.env.BENCH_SKIP_PG_RESTART === "1") {
      console.log("  Postgres restart run skipped (BENCH_SKIP_PG_RESTART=1)");
      return;
    }
    let restart: Promise<string> | undefined;
    const timer = setTimeout(() => {
      const started = performance.now();
      restart = (async () => {
        const versions = Array.from(new Bun.Glob("*").scanSync({ cwd: "/etc/postgresql", onlyFiles: false }));
        const proc = Bun.spawn(["pg_ctlcluster", "--skip-systemctl-redirect", versions[0]!, "main", "restart"], { stdout: "ignore", stderr: "pipe" });
        const code = await proc.exited;
        return `exit ${code} after ${(performance.now() - started).toFixed(0)} ms`;
      })();
    }, (RESTART_SECONDS * 1000) / 5);
    const during = await wrk(serviceUrl, { requests: trackRequests(keys, "/bench/restart/", 4), connections: CONNECTIONS, seconds: RESTART_SECONDS, countStatuses: true, allowErrors: true, serverPid: service.proc.pid });
    clearTimeout(timer);
    const restartOutcome = restart ? await restart : "not triggered";
    const answered202 = during.statuses?.["202"] ?? 0;
    console.log(`POST /api/track for ${RESTART_SECONDS} s with a Postgres restart (${restartOutcome}): ${during.rps.toFixed(0)} req/s, p99 ${during.p99.toFixed(2)} ms, statuses ${JSON.stringify(during.statuses)}, ${during.errors - Object.entries(during.statuses ?? {}).filter(([s]) => Number(s) > 399).reduce((n, [, c]) => n + c, 0)} socket errors`);
    // Reconnect, let the backlog drain, then stop the service so its queues report their totals.
    await sql.end({ timeout: 5 });
    const after = postgres(databaseUrl!, { max: 2, onnotice: () => {} });
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
      stopped = true;
      const { rows: restartRows, distinct: restartDistinct } = await rowsOf(after, "/bench/restart/");
      const stats = closedStats(service.lines);
      const failures = service.lines.filter((l) => l.includes("rows kept for retry") || l.includes("dropping interactions") || l.includes("recovered")).length;
      console.log(
        `  rows: ${answered202} answered 202, ${restartRows} recorded, ${restartRows - restartDistinct} duplicated, ${answered202 - restartDistinct} not recorded (wrk stops with up to ${CONNECTIONS} in flight); engagement queue at shutdown ${JSON.stringify(stats ?? {})}; ${failures} outage log lines`,
      );
    } finally {
      await after.end({ timeout: 5 });
    }
  } finally {
    if (!stopped) await stopProcess(service.proc);
    baseline.kill("SIGTERM");
    await baseline.exited;
    rmSync(service.dataDir, { recursive: true, force: true });
    await sql?.end({ timeout: 2 }).catch(() => {});
    if (admin) {
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
}

/** The tracking bench on PGlite, then on a Postgres server when one answers. */
export async function benchTrack(): Promise<void> {
  await benchTrackOn("PGlite", undefined);
  const server = await postgresServer();
  if (server) await benchTrackOn("Postgres", server);
  else console.log("POST /api/track on Postgres: skipped, no server answers (set BENCH_DATABASE_URL)");
}

if (import.meta.main) {
  await benchTrack();
  process.exit(0);
}
