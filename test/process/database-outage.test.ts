// The real process (production mode, DATA_MODE=remote) reaches its database through a TCP proxy
// that this test kills under load and then brings back (docs/operations.md, "When the database is
// down"). While it is gone every request is answered within 5 s (p100) and none with a 500: pages
// from the CSV fallback, tracking 202, sign-in and the payment webhook 503 with Retry-After. Once
// it is back, tracking rows accepted after its return are in the table within 1 s of it.
//
// The database: with TEST_DATABASE_URL, a database of its own on that Postgres server; without it,
// an in-memory PGlite served over the Postgres wire protocol from this process.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { startProxiedService, type ProxiedService } from "../helpers/processes.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";
import { REQUEST_DEADLINE_MS } from "../../src/app.ts";

/** How long the database stays away, under load. */
const OUTAGE_MS = 2_500;
const WORKERS = 6;
const ANSWER_WITHIN_MS = 5_000;
// On a Postgres server, rows accepted after the return are recorded within 1 s. Without one, the
// processes share an in-memory PGlite served over the wire from this test (helpers/pglite-wire.ts):
// a single backend that serves every connection in turns, so a new connection's start-up can wait
// behind the backlog's writes for more than the 2 s connect deadline and trip the breaker once more
// (seen in 1 of 4 runs: all rows recorded 2.2 s after the return). That rig stands in for a server;
// the embedded database in production runs in process, without connections or a breaker.
const RECORDED_WITHIN_MS = TEST_DATABASE_URL ? 1_000 : 3_000;

let service: ProxiedService | undefined;
let direct: postgres.Sql;
let proxy: ProxiedService["proxy"];
let base = "";
let output: () => string = () => "";

beforeAll(async () => {
  service = await startProxiedService("outage", {
    // The load names many clients in X-Forwarded-For from loopback, so no per-IP limit interferes.
    TRACKING_LIMITER_FALLBACK: "local",
    PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  });
  ({ proxy, base, output } = service);
  direct = postgres(service.shared.url, { max: 1, onnotice: () => {} });
}, 90_000);

afterAll(async () => {
  await direct?.end({ timeout: 2 });
  await service?.stop();
}, 30_000);

let clientNo = 0;
const client = () => {
  clientNo++;
  return `198.18.${(clientNo >> 8) & 255}.${clientNo & 255}`;
};

interface Answer {
  name: string;
  status: number;
  ms: number;
  retryAfter: string | null;
}

describe("a database outage under load", () => {
  test("every request answered within 5 s, no 500; tracking accepted after the return is recorded within 1 s (3 s on the PGlite stand-in)", async () => {
    const events = (await (await fetch(`${base}/api/events`)).json()) as { events: { eventKey: string }[] };
    const keys = events.events.map((e) => e.eventKey);
    expect(keys.length).toBeGreaterThan(5);

    const requests: [string, () => Promise<Response>][] = [
      ["home", () => fetch(`${base}/`)],
      ["search", () => fetch(`${base}/?q=outage-${Math.random().toString(36).slice(2, 8)}`)],
      ["events api", () => fetch(`${base}/api/events?q=${Math.random().toString(36).slice(2, 6)}`)],
      ["spotlight status", () => fetch(`${base}/feature-event/status`)],
      ["track", () => fetch(`${base}/api/track`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client() }, body: JSON.stringify({ eventKey: keys[clientNo % keys.length], actionType: "click", sessionId: crypto.randomUUID(), source: "outage" }) })],
      ["sign-in", () => fetch(`${base}/api/auth/verify`, { method: "POST", headers: { "content-type": "application/json", origin: "http://finder.test", "x-forwarded-for": client() }, body: JSON.stringify({ email: `visitor${clientNo}@example.com`, consent: true }) })],
      [
        "webhook",
        async () => {
          const body = JSON.stringify(checkoutCompleted({ id: `evt_outage_${clientNo++}` }));
          return fetch(`${base}/api/webhooks/payment`, { method: "POST", headers: { "content-type": "application/json", "payment-signature": await signatureHeader(body, Math.floor(Date.now() / 1000)) }, body });
        },
      ],
      ["admin login", () => fetch(`${base}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client() }, body: JSON.stringify({ key: "wrong" }) })],
    ];
    const answers: Answer[] = [];
    let running = true;
    const worker = async (offset: number) => {
      for (let i = offset; running; i++) {
        const [name, send] = requests[i % requests.length]!;
        const started = performance.now();
        try {
          const res = await send();
          await res.arrayBuffer();
          answers.push({ name, status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") });
        } catch (error) {
          answers.push({ name, status: 0, ms: performance.now() - started, retryAfter: null });
        }
      }
    };

    await proxy.kill();
    const workers = Array.from({ length: WORKERS }, (_, i) => worker(i));
    await Bun.sleep(OUTAGE_MS);
    running = false;
    await Promise.all(workers);

    // Back: rows sent from the moment the proxy listens again.
    await proxy.start();
    const returnedAt = performance.now();
    const sessions = Array.from({ length: 20 }, () => crypto.randomUUID());
    const sends = sessions.map(async (sessionId, i) => {
      await Bun.sleep(i * 10);
      const res = await fetch(`${base}/api/track`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client() }, body: JSON.stringify({ eventKey: keys[i % keys.length], actionType: "click", sessionId, source: "after-return" }) });
      expect(res.status).toBe(202);
    });
    await Promise.all(sends);
    const acceptedAt = performance.now();
    let firstSeenAt = Infinity;
    let recorded = 0;
    let recordedAt = Infinity;
    while (performance.now() - returnedAt < RECORDED_WITHIN_MS + 2_000) {
      const [row] = await direct<{ n: number }[]>`select count(*)::int as n from engagement_interactions where source = 'after-return'`;
      recorded = row!.n;
      if (recorded > 0 && firstSeenAt === Infinity) firstSeenAt = performance.now();
      if (recorded === sessions.length) {
        recordedAt = performance.now();
        break;
      }
      await Bun.sleep(25);
    }

    // Per route and status: how many answers and the slowest, for the failure message.
    const groups = new Map<string, number[]>();
    for (const a of answers) groups.set(`${a.name} ${a.status}`, [...(groups.get(`${a.name} ${a.status}`) ?? []), a.ms]);
    const timeline = `after the return: all accepted at ${Math.round(acceptedAt - returnedAt)} ms, first recorded at ${Math.round(firstSeenAt - returnedAt)} ms, all at ${Math.round(recordedAt - returnedAt)} ms`;
    const summary = `${timeline}\nanswers: ${JSON.stringify([...groups].map(([k, v]) => [k, v.length, Math.round(Math.max(...v))]))}\nlogs:\n${output().slice(-4000)}`;
    // Under load: each worker answered more than twice on average. A worker whose request waits out
    // the 3 s connect deadline answers few in a 2.5 s outage, so this is a floor, not a rate.
    expect(answers.length, summary).toBeGreaterThan(WORKERS * 2);
    expect(answers.filter((a) => a.ms > ANSWER_WITHIN_MS), summary).toEqual([]);
    expect(answers.filter((a) => a.status === 0 || a.status >= 500 && a.status !== 503), summary).toEqual([]);
    expect(answers.filter((a) => a.status === 503 && a.retryAfter === null), summary).toEqual([]);
    // What the docs promise for each.
    for (const name of ["home", "search", "events api", "spotlight status"]) expect(answers.filter((a) => a.name === name && a.status !== 200), summary).toEqual([]);
    expect(answers.filter((a) => a.name === "track" && a.status !== 202), summary).toEqual([]);
    expect(answers.filter((a) => a.name === "webhook" && a.status !== 503), summary).toEqual([]);
    expect(answers.filter((a) => a.name === "sign-in" && a.status !== 503), summary).toEqual([]);
    expect(recorded, summary).toBe(sessions.length);
    expect(recordedAt - returnedAt, summary).toBeLessThanOrEqual(RECORDED_WITHIN_MS);
  }, 60_000);
});

describe("a database that stops answering mid-query", () => {
  // The burst of misses of every kind, on both databases, is in stall-fallback.test.ts.
  test("a new search is answered 200 from the saved list within the read budget, with the security headers, then normally once it answers again", async () => {
    expect((await fetch(`${base}/?q=before-stall`)).status).toBe(200);
    proxy.stall();
    let stalledAnswer: { status: number; ms: number; csp: string | null };
    try {
      // Past the live read kept for misses (250 ms), the next miss reads the stalled database.
      await Bun.sleep(400);
      const started = performance.now();
      const res = await fetch(`${base}/?q=during-stall`, { headers: { "hx-request": "true" } });
      await res.arrayBuffer();
      stalledAnswer = { status: res.status, ms: performance.now() - started, csp: res.headers.get("content-security-policy") };
    } finally {
      proxy.flow();
    }
    expect(stalledAnswer.status, output().slice(-2000)).toBe(200);
    expect(stalledAnswer.ms).toBeLessThan(REQUEST_DEADLINE_MS - 1_000);
    expect(stalledAnswer.csp).toContain("default-src");
    expect(output()).toContain("Database not answering live reads");
    const after = await fetch(`${base}/?q=after-stall`);
    expect(after.status).toBe(200);
  }, 30_000);
});
