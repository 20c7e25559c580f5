// A deadline is a promise (docs/operations.md, "When the database is down", "A write under the
// deadline"): the real process (production mode) reaches its database through a TCP proxy; while
// the database stops answering during a submission, the request's 503 means nothing was stored,
// even once the database answers again and the late work runs to its end; and the host's retry
// with the same Idempotency-Key is the same submission (stored once, the same answer, never a
// 24-hour 429).
//
// Two ways the database stops answering: the proxy passes nothing either way (a stall, before the
// request's first statement), and a lock held from another connection that the submission's insert
// waits on (mid-transaction, after its rate-limit hits). The database: with TEST_DATABASE_URL, a
// database of its own on that Postgres server; without it, an in-memory PGlite served over the
// Postgres wire protocol from this process.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { startProxiedService, type ProxiedService } from "../helpers/processes.ts";
import { REQUEST_DEADLINE_MS } from "../../src/app.ts";
import { festivalWindow } from "../../src/lib/events/festival-window.ts";

/** After the database answers again, how long the late work gets to finish (or not) before the table is read. */
const SETTLE_MS = 2_000;

let service: ProxiedService | undefined;
let direct: postgres.Sql;
let proxy: ProxiedService["proxy"];
let base = "";
let output: () => string = () => "";

beforeAll(async () => {
  service = await startProxiedService("write_deadline");
  ({ proxy, base, output } = service);
  direct = postgres(service.shared.url, { max: 2, onnotice: () => {} });
}, 90_000);

afterAll(async () => {
  await direct?.end({ timeout: 2 });
  await service?.stop();
}, 30_000);

let n = 0;
/** A valid submission in the coming festival, unique by its name and email; `ip` keeps each test's limits apart. */
function submission(): Record<string, string> {
  n++;
  return {
    eventName: `Stalled Canal Session ${n}`,
    date: festivalWindow(new Date(), {}).from.replace(/-\d\d$/, "-21"),
    startTime: "18:00",
    location: "Quai de Valmy",
    hostEmail: `stalled-host${n}@example.com`,
    proofLink: `https://example.com/stalled/${n}`,
    formStartedAt: new Date(Date.now() - 60_000).toISOString(),
  };
}

async function submit(body: Record<string, string>, key: string, ip: string) {
  const started = performance.now();
  const res = await fetch(`${base}/api/event-submissions`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get("retry-after"), ms: performance.now() - started };
}

async function storedRows(hostEmail: string) {
  return direct<{ id: string; idempotency_key: string | null }[]>`select id, idempotency_key from event_submissions where host_email = ${hostEmail}`;
}

/** The retries the host makes once the database answers again: the same key and body, twice, then another body under the key. */
async function expectRetriesAreTheSameSubmission(body: Record<string, string>, key: string, ip: string, summary: () => string) {
  const retry = await submit(body, key, ip);
  expect(retry.status, summary()).toBe(200);
  const again = await submit(body, key, ip);
  expect(again.status, summary()).toBe(200);
  expect(again.body).toBe(retry.body);
  const rows = await storedRows(body.hostEmail!);
  expect(rows.map((r) => r.idempotency_key)).toEqual([key]);
  const other = await submit({ ...body, eventName: `${body.eventName} (changed)` }, key, ip);
  expect(other.status).toBe(409);
  expect(await storedRows(body.hostEmail!)).toHaveLength(1);
}

describe("a submission while the database stops answering", () => {
  test("a stall: 503 at the deadline, nothing stored once the database answers again; the retry with the same key is one submission with the same answer", async () => {
    const body = submission();
    const key = crypto.randomUUID();
    const ip = "198.51.100.21";
    proxy.stall();
    let answer: Awaited<ReturnType<typeof submit>>;
    try {
      answer = await submit(body, key, ip);
    } finally {
      proxy.flow();
    }
    const summary = () => `${JSON.stringify(answer)}\nlogs:\n${output().slice(-3000)}`;
    expect(answer.status, summary()).toBe(503);
    expect(answer.retryAfter).not.toBeNull();
    expect(answer.ms).toBeLessThan(REQUEST_DEADLINE_MS + 1_500);
    // The late work runs on once the database answers: it must not commit.
    await Bun.sleep(SETTLE_MS);
    expect((await storedRows(body.hostEmail!)).length, summary()).toBe(0);
    await expectRetriesAreTheSameSubmission(body, key, ip, summary);
  }, 30_000);

  test("a lock the insert waits on, mid-transaction: 503, then rolled back with its rate-limit hits once the lock goes; the retry is stored once", async () => {
    const body = submission();
    const key = crypto.randomUUID();
    const ip = "198.51.100.22";
    // Read before the lock: the PGlite stand-in serves no other connection while one is inside a transaction.
    const countersBefore = await fingerprintCounters();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = direct.begin(async (sql) => {
      await sql`lock table event_submissions in exclusive mode`;
      locked();
      await released;
    });
    await lockTaken;
    let answer: Awaited<ReturnType<typeof submit>>;
    try {
      answer = await submit(body, key, ip);
    } finally {
      release();
      await holder;
    }
    const summary = () => `${JSON.stringify(answer)}\nlogs:\n${output().slice(-3000)}`;
    expect(answer.status, summary()).toBe(503);
    expect(answer.retryAfter).not.toBeNull();
    expect(answer.ms).toBeLessThan(REQUEST_DEADLINE_MS + 1_500);
    await Bun.sleep(SETTLE_MS);
    expect((await storedRows(body.hostEmail!)).length, summary()).toBe(0);
    // The rolled-back submission took its hits back: no new counter for the content's 24-hour limit.
    expect(await fingerprintCounters(), summary()).toBe(countersBefore);
    await expectRetriesAreTheSameSubmission(body, key, ip, summary);
  }, 30_000);
});

/** How many counters the content's 24-hour limit holds. */
async function fingerprintCounters(): Promise<number> {
  const [row] = await direct<{ n: number }[]>`select count(*)::int as n from rate_limit_counters where scope = 'event_submit_fingerprint'`;
  return row!.n;
}
