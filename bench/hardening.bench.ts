// Hardening figures: (1) geocoding provider calls made by 1,000 distinct public searches (must be
// 0: live reads only read the coordinate cache), beside the calls of one warm-up of the same sheet;
// (2) cached `/` throughput with the security headers beside the same app without them, same run.
// The app runs in its own process on the server core; the fake provider (a loopback HTTP server
// answering ZERO_RESULTS in Google's format) and the search load run in this process.

import { compareWrk, load, startServer, type BenchServer } from "./lib.ts";

const CRON_SECRET = "bench-cron-secret-0123456789";
const SEARCHES = 1000;

function startFakeProvider(): { url: string; calls: () => number; stop: () => void } {
  let calls = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      calls++;
      return Response.json({ results: [], status: "ZERO_RESULTS" });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/maps/api/geocode/json`, calls: () => calls, stop: () => server.stop(true) };
}

async function withApp<T>(setup: object, run: (app: BenchServer) => Promise<T>): Promise<T> {
  const app = await startServer("bench/servers/app.server.ts", [JSON.stringify(setup)]);
  try {
    return await run(app);
  } finally {
    await app.stop();
  }
}

async function providerCalls(): Promise<void> {
  const provider = startFakeProvider();
  try {
    const env = { GEOCODING_API_KEY: "bench-key", GEOCODING_API_URL: provider.url, CRON_SECRET };
    await withApp({ dataMode: "remote", seed: "sample", env }, async (app) => {
      // Every request a new search: a render-cache miss, so a full live read each time; pages and
      // htmx fragments alternate, and every tenth is the events API.
      let n = 0;
      const next = () => {
        const i = n++;
        if (i % 10 === 9) return new Request(`${app.url}/api/events?q=bench-${i}`);
        return new Request(`${app.url}/?q=bench-${i}`, { headers: i % 2 ? { "hx-request": "true" } : {} });
      };
      const before = provider.calls();
      const result = await load(next, { total: SEARCHES, concurrency: 20, expectStatus: 200 });
      const during = provider.calls() - before;
      const warm = await fetch(`${app.url}/api/cron/warm-coordinates`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      const report = (await warm.json()) as { ok: boolean; arrondissementFallback?: number };
      const warmCalls = provider.calls() - before - during;
      const again = await fetch(`${app.url}/api/cron/warm-coordinates`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      await again.arrayBuffer();
      const retryCalls = provider.calls() - before - during - warmCalls;
      console.log(
        `${"provider calls per 1,000 distinct public searches".padEnd(52)} ${String(Math.round((during / SEARCHES) * 1000)).padStart(7)}        (must be 0; ${result.requests} searches, ${result.errors} errors, ${result.rps.toFixed(0)} req/s)`,
      );
      console.log(
        `${"provider calls of one warm-up of the same sheet".padEnd(52)} ${String(warmCalls).padStart(7)}        (ok: ${report.ok}); the next warm-up: ${retryCalls} (unresolved venues back off 1 h)`,
      );
    });
  } finally {
    provider.stop();
  }
}

async function headersCost(): Promise<void> {
  await withApp({ dataMode: "remote", seed: "sample" }, (withHeaders) =>
    withApp({ dataMode: "remote", seed: "sample", securityHeaders: false }, async (without) => {
      for (const app of [withHeaders, without]) {
        const res = await fetch(`${app.url}/`, { headers: { "accept-encoding": "br" } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${app.url}/ answered ${res.status}`);
      }
      const csp = (await fetch(`${withHeaders.url}/api/health`)).headers.get("content-security-policy");
      const none = (await fetch(`${without.url}/api/health`)).headers.get("content-security-policy");
      if (!csp || none) throw new Error("the two servers do not differ by their security headers");
      await compareWrk("GET / cached, security headers (baseline: without)", `${withHeaders.url}/`, `${without.url}/`, { headers: { "accept-encoding": "br" } });
    }),
  );
}

export async function benchHardening(): Promise<void> {
  await providerCalls();
  await headersCost();
}

if (import.meta.main) {
  const { LOAD_CPU, pinSelf } = await import("./lib.ts");
  pinSelf(LOAD_CPU);
  await benchHardening();
  process.exit(0);
}
