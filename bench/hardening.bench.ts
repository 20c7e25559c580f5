// Hardening figures: (1) geocoding provider calls made by 1,000 distinct public searches (must be
// 0: live reads only read the coordinate cache), beside the calls of one warm-up of the same sheet;
// (2) cached `/` throughput with the security headers beside the same app without them, same run;
// (3) the fuzz: 12,000 hostile requests over every registered route (bad percent-encodings, NUL,
// over-long and odd values in the path and the query, unknown and malformed JSON bodies, with and
// without the admin key, wrong keys), counted by status class (must be 0 × 5xx); then wrong-key
// guesses from one IP as fast as they go, and the right key after them.
// The app runs in its own process on the server core, the searches and the guesses come from wrk
// on the other core; the fake provider (a loopback HTTP server answering ZERO_RESULTS in Google's
// format) and the fuzz (its requests are built here, one by one) run in this process.

import { at, compareWrk, startServer, wrk, type BenchServer, type WrkRequest } from "./lib.ts";
import { createTestServiceAccount, startFakeGoogle } from "../test/lib/spreadsheet-import/fake-google.ts";

const CRON_SECRET = "bench-cron-secret-0123456789";
/** Seconds of distinct public searches. */
const SEARCH_SECONDS = 3;

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
  const app = await startServer("servers/app.server.ts", [JSON.stringify(setup)]);
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
      const searches: WrkRequest[] = Array.from({ length: 10 }, (_, i) =>
        i === 9 ? { path: "/api/events?q=bench-{run}-{n}" } : { path: "/?q=bench-{run}-{n}", headers: i % 2 ? { "hx-request": "true" } : undefined },
      );
      const before = provider.calls();
      const result = await wrk(app.url, { requests: searches, connections: 20, seconds: SEARCH_SECONDS, label: "searches" });
      const during = provider.calls() - before;
      const warm = await fetch(`${app.url}/api/cron/warm-coordinates`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      const report = (await warm.json()) as { ok: boolean; arrondissementFallback?: number };
      const warmCalls = provider.calls() - before - during;
      const again = await fetch(`${app.url}/api/cron/warm-coordinates`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      await again.arrayBuffer();
      const retryCalls = provider.calls() - before - during - warmCalls;
      console.log(
        `${"provider calls per 1,000 distinct public searches".padEnd(52)} ${String(Math.round((during / result.requests) * 1000)).padStart(7)}        (must be 0; ${result.requests} searches from wrk in ${SEARCH_SECONDS} s, ${result.rps.toFixed(0)} req/s)`,
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
      await compareWrk("GET / cached, security headers (baseline: without)", at(withHeaders, "/"), at(without, "/"), { headers: { "accept-encoding": "br" } });
    }),
  );
}

const FUZZ_REQUESTS = 12_000;
const FUZZ_ADMIN_KEY = "fuzz-admin-key-5d1f0c9a7e3b2846f1a0c7d9e5b3a214";
/** Values a path segment or a query value is replaced with. */
const FUZZ_VALUES = [
  "%", "%C3%28", "%E0%A4%A", "%00", "%C0%AF", "%ED%A0%80", "%ZZ", "a%2", "%F0%9F%98", "%25", "%2F..%2F..%2Fetc%2Fpasswd", "..", "%2e%2e",
  "x".repeat(3000), "%C3%A9v%C3%A8nement", "😀", "'%20or%201=1--", "%3Cscript%3Ealert(1)%3C/script%3E", "-1", "0", "1e309", "NaN", "null", "[]", "%20", "",
];
/** Wrong credentials: the values a header can carry. */
const HEADER_GUESSES = FUZZ_VALUES.filter((v) => v !== "" && /^[\x21-\x7e]+$/.test(v));
/** Bodies a write is sent with. */
const FUZZ_BODIES = ['{"backupId":"x","zz":1}', "{", "[1,2]", "null", '{"__proto__":{"admin":true}}', '{"id":{"$ne":null}}', "\u0000", "a=b&c=%ZZ", '"text"', "{}"];

/** A small deterministic generator, so two runs send the same requests. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function fuzzRequest(base: string, route: { method: string; path: string }, random: () => number): Request {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const segments = route.path.split("/").map((segment, i) => (i > 0 && (segment.startsWith(":") || segment === "*" || random() < 0.15) ? pick(FUZZ_VALUES) : segment));
  let path = segments.join("/") || "/";
  if (random() < 0.5) path += `?${pick(["q", "lang", "next", "at", "limit", "offset", pick(FUZZ_VALUES)])}=${pick(FUZZ_VALUES)}&${pick(FUZZ_VALUES)}=${pick(FUZZ_VALUES)}`;
  const headers: Record<string, string> = { "x-forwarded-for": `198.18.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}` };
  const credential = random();
  if (credential < 0.4) headers["x-admin-key"] = FUZZ_ADMIN_KEY;
  else if (credential < 0.55) headers["x-admin-key"] = pick(HEADER_GUESSES);
  else if (credential < 0.65) headers.authorization = `Bearer ${pick(HEADER_GUESSES)}`;
  if (random() < 0.2) headers["hx-request"] = "true";
  const method = route.method === "ALL" ? "GET" : route.method;
  const hasBody = method !== "GET" && method !== "HEAD";
  if (hasBody) headers["content-type"] = pick(["application/json", "application/x-www-form-urlencoded", "text/csv"]);
  return new Request(`${base}${path}`, { method, headers, body: hasBody ? pick(FUZZ_BODIES) : undefined });
}

/**
 * The fuzz against an app set up as a deployment is (every secret set, the spreadsheet at a
 * loopback fake of Google's token and values endpoints), so a 503 "not configured" or a 502 from
 * an unreachable Google is not what it counts.
 */
export async function fuzz(): Promise<void> {
  const account = await createTestServiceAccount();
  const google = startFakeGoogle([account]);
  const env = {
    ADMIN_KEY: FUZZ_ADMIN_KEY,
    CRON_SECRET,
    DEPLOY_REVALIDATE_SECRET: "fuzz-deploy-secret-0f3c9a1e7b5d2468",
    PAYMENT_WEBHOOK_SECRET: "fuzz-webhook-secret-8e2b6d4f0a1c3957",
    SHEET_ID: "sheet-ok",
    SHEET_SERVICE_ACCOUNT_KEY: account.json,
    SHEETS_TOKEN_URL: google.tokenUrl,
    SHEETS_API_URL: google.apiUrl,
  };
  try {
    await fuzzApp(env);
  } finally {
    google.stop();
  }
}

async function fuzzApp(env: Record<string, string>): Promise<void> {
  await withApp({ dataMode: "remote", seed: "sample", listRoutes: true, env }, async (app) => {
    const routes = (app.info as { routes: { method: string; path: string }[] }).routes;
    const random = prng(35);
    const classes = new Map<string, number>();
    const failures = new Map<string, number>();
    let sent = 0;
    const started = performance.now();
    const worker = async () => {
      while (sent < FUZZ_REQUESTS) {
        const route = routes[sent++ % routes.length]!;
        const request = fuzzRequest(app.url, route, random);
        let status: number;
        try {
          const res = await fetch(request, { redirect: "manual" });
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = 0;
        }
        const kind = status === 0 ? "no answer" : `${Math.floor(status / 100)}xx`;
        classes.set(kind, (classes.get(kind) ?? 0) + 1);
        if (status === 0 || status >= 500) failures.set(`${status} ${request.method} ${route.path}`, (failures.get(`${status} ${request.method} ${route.path}`) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const seconds = (performance.now() - started) / 1000;
    const bad = (classes.get("5xx") ?? 0) + (classes.get("no answer") ?? 0);
    const spread = ["2xx", "3xx", "4xx", "5xx", "no answer"].filter((k) => classes.has(k)).map((k) => `${classes.get(k)} × ${k}`).join(", ");
    console.log(`${"fuzz: hostile requests over every route".padEnd(52)} ${String(bad).padStart(7)} × 5xx  (must be 0; ${sent} requests over ${routes.length} routes in ${seconds.toFixed(1)} s: ${spread})`);
    for (const [what, count] of failures) console.log(`${"".padEnd(52)} ${count} × ${what}`);
    await keyGuesses(app);
  });
}

/** Wrong X-Admin-Key guesses from one IP for a few seconds, as fast as 16 wrk connections go; then the right key. */
async function keyGuesses(app: BenchServer): Promise<void> {
  const seconds = 5;
  const headers = (key: string) => ({ "x-admin-key": key, "x-forwarded-for": "203.0.113.50" });
  // Refusals (401, then 429) are what this measures: errors allowed, answers counted by status.
  const guesses = await wrk(app.url, { requests: [{ path: "/api/admin/health", headers: headers("guess-{n}-0123456789abcdef") }], connections: 16, seconds, countStatuses: true, allowErrors: true });
  const statuses = Object.entries(guesses.statuses ?? {}).map(([status, count]) => [Number(status), count] as const);
  const n = guesses.requests;
  await Bun.sleep(1_100);
  const right = await fetch(`${app.url}/api/admin/health`, { headers: headers(FUZZ_ADMIN_KEY) });
  await right.arrayBuffer();
  const spread = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(", ");
  console.log(`${"wrong X-Admin-Key guesses from one IP, 5 s".padEnd(52)} ${String(n).padStart(7)}        (${spread}: the key is read at most once a second past the 10th); the right key 1 s later: ${right.status}`);
}

export async function benchHardening(): Promise<void> {
  await providerCalls();
  await fuzz();
  await headersCost();
}

if (import.meta.main) {
  const { LOAD_CPU, pinSelf } = await import("./lib.ts");
  pinSelf(LOAD_CPU);
  await benchHardening();
  process.exit(0);
}
