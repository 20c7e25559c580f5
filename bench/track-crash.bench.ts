// Bounded loss on a crash: the real process (`bun src/index.ts`, production mode, DATA_MODE=remote)
// over a fresh database on the local Postgres server is flooded with POST /api/track from this
// process (another process, another core). Two floods of the same length on the same process:
//   1. without a kill: throughput (the baseline of this run);
//   2. `kill -9` halfway through: throughput until the kill, then the rows in Postgres are matched
//      against the interactions answered 202. Every row lost must be among those accepted in the
//      last 250 ms before the kill (the write-behind keeps at most ~200 ms of backlog).
// Figures on a loaded machine are noisy; the loss bound is what this bench checks.

import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { pinned, report, SERVER_CPU, type LoadResult } from "./lib.ts";
import { freePort } from "../test/helpers/processes.ts";

const SERVER = "postgres://postgres@127.0.0.1:5432";
const ROOT = join(import.meta.dir, "..");
const FLOOD_MS = Number(process.env.BENCH_CRASH_FLOOD_MS ?? 8_000);
const CONCURRENCY = 100;
const LOSS_WINDOW_MS = 250;

interface Flood extends LoadResult {
  /** Answer time (performance.now) of every request answered 202, by request number. */
  accepted: Map<number, number>;
}

/** A closed loop of CONCURRENCY workers for `ms`, or until the server stops answering. */
async function flood(url: string, keys: string[], prefix: string, ms: number, onTick?: (elapsed: number) => void): Promise<Flood> {
  const accepted = new Map<number, number>();
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let stopped = false;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const actions = ["click", "click", "outbound_click", "calendar_sync"];
  async function worker() {
    while (!stopped && performance.now() - started < ms) {
      const i = sent++;
      onTick?.(performance.now() - started);
      const t0 = performance.now();
      try {
        const res = await fetch(url, {
          method: "POST",
          // Loopback is a trusted proxy by default: the forwarded address spreads the per-IP limits.
          headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": `10.9.${(i % 8000) >> 8}.${i % 8000 & 255}` },
          body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: actions[i % actions.length], sessionId: `crash-${i % 8000}`, source: "event_open", path: `${prefix}${i}` }),
        });
        await res.arrayBuffer();
        if (res.status === 202) accepted.set(i, performance.now());
        else errors++;
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
        stopped = stopped || performance.now() - started > 50;
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : 0);
  const cpu = process.cpuUsage(cpuBefore);
  return { accepted, requests: latencies.length, errors, seconds, rps: accepted.size / seconds, p50: pick(50), p90: pick(90), p99: pick(99), counters: {}, clientCpu: (cpu.user + cpu.system) / 1e6 / seconds };
}

async function waitForHealth(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`no answer from ${url}`);
}

export async function benchTrackCrash(): Promise<void> {
  const dbName = `finder_crash_${process.pid}`;
  const admin = postgres(`${SERVER}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const databaseUrl = `${SERVER}/${dbName}`;
  const port = freePort();
  const proc = Bun.spawn(pinned(SERVER_CPU, [process.execPath, "src/index.ts"]), {
    cwd: ROOT,
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
      DATA_DIR: `/tmp/finder-crash-bench-${process.pid}`,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(`${base}/api/health`);
    const { events } = (await (await fetch(`${base}/api/events`)).json()) as { events: { eventKey: string }[] };
    const keys = events.map((e) => e.eventKey);
    await flood(`${base}/api/track`, keys, "/crash/warm/", 2_000);

    const calm = await flood(`${base}/api/track`, keys, "/crash/calm/", FLOOD_MS);
    let killedAt = 0;
    const crash = await flood(`${base}/api/track`, keys, "/crash/kill/", FLOOD_MS, (elapsed) => {
      if (killedAt === 0 && elapsed >= FLOOD_MS / 2) {
        killedAt = performance.now();
        proc.kill("SIGKILL");
      }
    });
    await proc.exited;
    // Throughput until the kill, beside the flood without one.
    const acceptedBeforeKill = [...crash.accepted.values()].filter((t) => t <= killedAt).length;
    const crashSeconds = FLOOD_MS / 2 / 1000;
    report("POST /api/track flood, rate until kill -9 vs same flood without kill", { ...crash, rps: acceptedBeforeKill / crashSeconds }, calm);

    const stored = new Set((await sql<{ path: string }[]>`select path from engagement_interactions where path like '/crash/kill/%'`).map((r) => Number(r.path.slice("/crash/kill/".length))));
    let lost = 0;
    let lostOutsideWindow = 0;
    for (const [i, at] of crash.accepted) {
      if (stored.has(i)) continue;
      lost++;
      if (at < killedAt - LOSS_WINDOW_MS) lostOutsideWindow++;
    }
    const lastWindow = [...crash.accepted.values()].filter((t) => t >= killedAt - LOSS_WINDOW_MS).length;
    console.log(
      `  kill -9 mid-flood: ${crash.accepted.size} answered 202, ${stored.size} rows stored, ${lost} answered but lost; ${lastWindow} accepted in the last ${LOSS_WINDOW_MS} ms; lost from earlier: ${lostOutsideWindow} -> ${lost <= lastWindow && lostOutsideWindow === 0 ? "OK" : "OVER BOUND"}`,
    );
  } finally {
    proc.kill("SIGKILL");
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
  await benchTrackCrash();
  process.exit(0);
}
