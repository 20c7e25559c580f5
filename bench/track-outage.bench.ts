// Tracking through a database outage (issue 22): the real process (`bun src/index.ts`, production
// mode) reaches a fresh database on the local Postgres server through a plain TCP proxy in this
// process, as in test/process/database-outage.test.ts. Distinct clients post to /api/track at
// concurrency 100 while the proxy is killed (every connection cut, new ones refused) for
// OUTAGE_MS and then started again. Printed: the answers during the run, the rows recorded of
// those accepted before, during and after the outage, and the time from the proxy's return to the
// first row of a request accepted after it (polled every 20 ms on a direct connection), beside the
// same run's figures for a run without an outage (the baseline); then the outage again with
// TRACKING_LIMITER_FALLBACK=local.
// BENCH_SERVICE_ROOT=<dir> runs another checkout's service (the figures before the fix).

import postgres from "postgres";
import { pinSelf, LOAD_CPU, wrk } from "./lib.ts";
import { startService, stopProcess, trackRequests, waitForHealth } from "./track.bench.ts";
import { freePort, tcpProxy } from "../test/helpers/processes.ts";

const SERVER = "postgres://postgres@127.0.0.1:5432";
const OUTAGE_MS = Number(process.env.BENCH_OUTAGE_MS ?? 5_000);
const BEFORE_MS = 3_000;
const AFTER_MS = 8_000;

/** One run: load for BEFORE_MS + OUTAGE_MS + AFTER_MS, the proxy away for OUTAGE_MS when `outage`. */
async function run(label: string, outage: boolean, env: Record<string, string> = {}): Promise<void> {
  const dbName = `finder_bench_outage_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(`${SERVER}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const proxyPort = freePort();
  const proxy = tcpProxy({ host: "127.0.0.1", port: 5432 }, proxyPort);
  await proxy.start();
  const port = freePort();
  const service = startService(`postgres://postgres@127.0.0.1:${proxyPort}/${dbName}`, port, env);
  const direct = postgres(`${SERVER}/${dbName}`, { max: 1, onnotice: () => {} });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(`${url}/api/health`, 60_000);
    const { events } = (await (await fetch(`${url}/api/events`)).json()) as { events: { eventKey: string }[] };
    const keys = events.map((e) => e.eventKey);
    await wrk(url, { requests: trackRequests(keys, "/warm/", 1), connections: 100, seconds: 3, label: "warm" });

    // Each request's path names its phase, so the rows of each phase are counted apart.
    let phase: "before" | "during" | "after" = "before";
    const started = performance.now();
    let returnedAt = 0;
    let firstRowMs: number | undefined;
    const accepted = { before: 0, during: 0, after: 0 };
    const statuses: Record<string, number> = {};
    const latencies: number[] = [];
    const timeline = (async () => {
      await Bun.sleep(BEFORE_MS);
      phase = "during";
      if (outage) await proxy.kill();
      await Bun.sleep(OUTAGE_MS);
      if (outage) await proxy.start();
      returnedAt = performance.now();
      phase = "after";
      // The first row of a request accepted after the return.
      while (firstRowMs === undefined && performance.now() - returnedAt < AFTER_MS) {
        const [{ n }] = await direct<{ n: number }[]>`select count(*)::int n from engagement_interactions where path like '/after/%'`;
        if (n > 0) firstRowMs = performance.now() - returnedAt;
        else await Bun.sleep(20);
      }
    })();
    const end = started + BEFORE_MS + OUTAGE_MS + AFTER_MS;
    let sent = 0;
    async function worker() {
      while (performance.now() < end) {
        const i = sent++;
        const at = phase;
        const t0 = performance.now();
        try {
          const res = await fetch(`${url}/api/track`, {
            method: "POST",
            headers: { "content-type": "text/plain;charset=UTF-8", "x-forwarded-for": `10.7.${(i % 4000) >> 8}.${i % 4000 & 255}` },
            body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: "click", sessionId: `outage-${i % 5000}`, source: "event_open", path: `/${at}/${i}` }),
          });
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status === 202) accepted[at]++;
        } catch {
          statuses.network = (statuses.network ?? 0) + 1;
        }
        latencies.push(performance.now() - t0);
      }
    }
    await Promise.all(Array.from({ length: 100 }, worker));
    await timeline;
    latencies.sort((x, y) => x - y);
    const p100 = latencies.at(-1) ?? 0;
    // Let the backlog drain, then count each phase's rows against its 202 answers.
    await Bun.sleep(5_000);
    const rows = await direct<{ phase: string; n: number }[]>`select split_part(path, '/', 2) phase, count(distinct path)::int n from engagement_interactions where path not like '/warm/%' group by 1`;
    const recorded = Object.fromEntries(rows.map((r) => [r.phase, r.n])) as Record<string, number>;
    const share = (p: keyof typeof accepted) => `${recorded[p] ?? 0} of ${accepted[p]} (${accepted[p] ? (((recorded[p] ?? 0) / accepted[p]) * 100).toFixed(0) : "-"} %)`;
    console.log(`${label.padEnd(52)} ${(latencies.length / ((BEFORE_MS + OUTAGE_MS + AFTER_MS) / 1000)).toFixed(0).padStart(7)} req/s  p100 ${p100.toFixed(0)} ms  statuses ${JSON.stringify(statuses)}`);
    console.log(`  rows recorded of those answered 202: before ${share("before")}, during ${share("during")}, after the return ${share("after")}`);
    console.log(`  first row of a request accepted after the return: ${firstRowMs === undefined ? "none within the run" : `${firstRowMs.toFixed(0)} ms after it`}`);
  } finally {
    await stopProcess(service.proc);
    await proxy.kill();
    await direct.end({ timeout: 2 });
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

export async function benchTrackOutage(): Promise<void> {
  await run(`POST /api/track, no outage (${(BEFORE_MS + OUTAGE_MS + AFTER_MS) / 1000} s)`, false);
  await run(`POST /api/track, database away ${OUTAGE_MS / 1000} s`, true);
  // With local limiter counts the outage's requests are queued too (within the backlog's bound).
  await run(`  same, TRACKING_LIMITER_FALLBACK=local`, true, { TRACKING_LIMITER_FALLBACK: "local" });
}

if (import.meta.main) {
  pinSelf(LOAD_CPU);
  await benchTrackOutage();
  process.exit(0);
}
