import { beforeEach, describe, expect, test } from "bun:test";
import { sanityIssues } from "../../src/lib/submissions/sanity.ts";
import { festivalWindow } from "../../src/lib/events/festival-window.ts";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { TEST_AUTH_SECRET, useTestApp, postJson } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";
import { hmacHex } from "../../src/lib/crypto.ts";
import { SUBMISSION_SETTINGS_KEY, setSubmissionSettings } from "../../src/lib/submissions/settings.ts";
import { parseSubmission } from "../../src/lib/submissions/validation.ts";
import type { RateLimiter } from "../../src/lib/rate-limit/fixed-window.ts";
import { eventSubmissions } from "../../src/lib/db/schema/index.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const THANKS = { success: true, message: "Thanks, your event submission has been received for review." };
let n = 0;
/** A valid submission; each call differs so the 24 h fingerprint limit never interferes. */
function valid(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    eventName: `Canal Sunset Session ${n}`,
    date: "2026-06-21",
    startTime: "18:00",
    location: "Quai de Valmy",
    hostEmail: `host${n}@example.com`,
    proofLink: `https://example.com/events/${n}`,
    formStartedAt: "2026-06-18T09:58:00.000Z",
    ...overrides,
  };
}

function submit(body: unknown, headers: Record<string, string> = {}) {
  return postJson(ctx, "/api/event-submissions", body, { "x-forwarded-for": "203.0.113.9", ...headers });
}

function expectNoStore(res: Response) {
  for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
}

async function stored() {
  return ctx.deps.database.query<Record<string, any>>(sql`select * from event_submissions order by created_at, id`);
}

describe("POST /api/event-submissions", () => {
  test("200 with the thanks line; stored pending with hashes and no raw IP", async () => {
    const body = valid({ hostEmail: " Host@Example.COM ", notes: "Bring   friends", honeypot: "" });
    const res = await submit(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(THANKS);
    expectNoStore(res);
    const [row] = await stored();
    expect(row.status).toBe("pending");
    expect(row.host_email).toBe("host@example.com");
    expect(row.payload).toEqual({
      eventName: body.eventName,
      date: "2026-06-21",
      startTime: "18:00",
      location: "Quai de Valmy",
      hostEmail: "host@example.com",
      proofLink: body.proofLink,
      notes: "Bring friends",
      submittedAt: "2026-06-18T10:00:00.000Z",
    });
    expect(row.source_ip_hash).toBe(hmacHex(TEST_AUTH_SECRET, "event_submit_ip|203.0.113.9"));
    expect(row.email_ip_hash).toBe(hmacHex(TEST_AUTH_SECRET, "event_submit_email_ip|host@example.com|203.0.113.9"));
    const fingerprint = `${body.eventName.toLowerCase()}|2026-06-21|18:00|quai de valmy|${body.proofLink}`;
    expect(row.fingerprint_hash).toBe(hmacHex(TEST_AUTH_SECRET, `event_submit_fingerprint|${fingerprint}`));
    expect(row.spam_signals).toEqual({ honeypotFilled: false, completedTooFast: false, completionSeconds: 120, reasons: [] });
    expect(row.review_reason).toBeNull();
    expect(JSON.stringify(row)).not.toContain("203.0.113.9");
  });

  test("415 for anything but JSON, before every other check", async () => {
    await setSubmissionSettings(ctx.deps, false, "test");
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const res = await submit(JSON.stringify(valid()), { "content-type": type });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ success: false, error: "Unsupported media type" });
      expectNoStore(res);
    }
    expect(await stored()).toHaveLength(0);
  });

  test("a charset or vendor JSON type is accepted", async () => {
    expect((await submit(valid(), { "content-type": "application/json; charset=utf-8" })).status).toBe(200);
    expect((await submit(valid(), { "content-type": "application/vnd.api+json, application/json" })).status).toBe(200);
  });

  test("submissions off: 503 with the closed message; missing or invalid settings mean open", async () => {
    await setSubmissionSettings(ctx.deps, false, "admin");
    const res = await submit(valid());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ success: false, error: "Event submissions are temporarily closed." });
    expectNoStore(res);
    await ctx.deps.kv.set(SUBMISSION_SETTINGS_KEY, { version: 2, enabled: false });
    expect((await submit(valid())).status).toBe(200);
    await ctx.deps.kv.set(SUBMISSION_SETTINGS_KEY, "garbage");
    expect((await submit(valid())).status).toBe(200);
    await ctx.deps.kv.delete(SUBMISSION_SETTINGS_KEY);
    expect((await submit(valid())).status).toBe(200);
  });

  test("unreadable settings: 503 Submission service unavailable", async () => {
    const kv = ctx.deps.kv;
    ctx.deps.kv = { ...kv, get: async () => Promise.reject(new Error("connection lost")) };
    try {
      const res = await submit(valid());
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ success: false, error: "Submission service unavailable" });
      expectNoStore(res);
    } finally {
      ctx.deps.kv = kv;
    }
    expect(await stored()).toHaveLength(0);
  });

  test("400 for a body that is not JSON, after the per-IP limit", async () => {
    for (const body of ["{", "", "[1,2]", "null", '"text"']) {
      const res = await submit(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Invalid request payload" });
      expectNoStore(res);
    }
  });

  test("400 with issues [{field, message, code}] for invalid details", async () => {
    const res = await submit(valid({ eventName: "x", hostEmail: "nope", proofLink: "javascript:alert(1)", notes: ["a"], date: undefined }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: "Invalid submission details",
      issues: [
        { field: "eventName", message: "Event name must be at least 2 characters", code: "tooShort", limit: 2 },
        { field: "date", message: "Date is required", code: "required" },
        { field: "hostEmail", message: "Host email must be a valid email address", code: "hostEmail" },
        { field: "proofLink", message: "Proof link must be an HTTP(S) URL", code: "proofLink" },
        { field: "notes", message: "Notes must be text", code: "text" },
      ],
    });
    expectNoStore(res);
    expect(await stored()).toHaveLength(0);
  });

  test("spam signals: the host sees success, the submission is stored declined by the system", async () => {
    const honeypot = await submit(valid({ honeypot: "https://cheap-pills.example" }));
    expect(honeypot.status).toBe(200);
    expect(await honeypot.json()).toEqual(THANKS);
    const fast = await submit(valid({ formStartedAt: "2026-06-18T09:59:57.500Z" }));
    expect(await fast.json()).toEqual(THANKS);
    const rows = await stored();
    const first = rows.find((r) => r.spam_signals.honeypotFilled)!;
    const second = rows.find((r) => r.spam_signals.completedTooFast)!;
    expect(first).toMatchObject({ status: "declined", review_reason: "spam_signal", reviewed_by: "system", spam_signals: { honeypotFilled: true, completedTooFast: false, completionSeconds: 120, reasons: ["honeypot_filled"] } });
    expect(new Date(first.reviewed_at).toISOString()).toBe("2026-06-18T10:00:00.000Z");
    expect(second).toMatchObject({ status: "declined", review_reason: "spam_signal", spam_signals: { completedTooFast: true, completionSeconds: 2.5, reasons: ["completed_too_fast"] } });
    expect(first.payload.honeypot).toBeUndefined();
    expect(first.payload.formStartedAt).toBeUndefined();
  });

  test("per IP 20 per 10 min → 429 with Retry-After; counted before the body is read", async () => {
    const ip = { "x-forwarded-for": "198.51.100.20" };
    for (let i = 0; i < 20; i++) expect((await submit(i % 2 ? "{" : valid(), ip)).status).not.toBe(429);
    ctx.clock.advance(30_000);
    const res = await submit(valid(), ip);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("570");
    expect(await res.json()).toEqual({ success: false, error: "Too many submissions. Please try again shortly." });
    expectNoStore(res);
    ctx.clock.advance(570_000);
    expect((await submit(valid(), ip)).status).toBe(200);
  });

  test("per email + IP 5 per hour → 429; another IP or email is not affected", async () => {
    const ip = { "x-forwarded-for": "198.51.100.21" };
    for (let i = 0; i < 5; i++) expect((await submit(valid({ hostEmail: "busy@example.com" }), ip)).status).toBe(200);
    const res = await submit(valid({ hostEmail: "BUSY@example.com" }), ip);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3600");
    expect((await submit(valid({ hostEmail: "busy@example.com" }), { "x-forwarded-for": "198.51.100.22" })).status).toBe(200);
    expect((await submit(valid({ hostEmail: "other@example.com" }), ip)).status).toBe(200);
  });

  test("per content fingerprint 1 per 24 h → 429, whatever the IP, email or case", async () => {
    const body = valid();
    expect((await submit(body)).status).toBe(200);
    const again = await submit({ ...body, eventName: body.eventName.toUpperCase(), hostEmail: "someone@else.fr", location: " quai   de valmy " }, { "x-forwarded-for": "192.0.2.1" });
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBe("86400");
    ctx.clock.advance(86_400_000);
    expect((await submit(body)).status).toBe(200);
  });

  test("limiter unavailable at any of the three checks → 503 Submission service unavailable, nothing stored", async () => {
    const limiter = ctx.deps.limiter;
    try {
      for (const failing of ["event_submit_ip", "event_submit_email_ip", "event_submit_fingerprint"]) {
        ctx.deps.limiter = {
          ...limiter,
          check: async (rule, parts, options) => (rule.scope === failing ? { status: "unavailable", allowed: false, keyHash: "x" } : limiter.check(rule, parts, options)),
        } satisfies RateLimiter;
        const res = await submit(valid(), { "x-forwarded-for": "192.0.2.50" });
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ success: false, error: "Submission service unavailable" });
        expect(res.headers.get("retry-after")).toBeNull();
        expectNoStore(res);
      }
    } finally {
      ctx.deps.limiter = limiter;
    }
    expect(await stored()).toHaveLength(0);
  });

  test("a failed insert → 503 Submission service unavailable, logged without the host's email", async () => {
    // The insert runs in a transaction (with the limiter's hits and the host's queued email): the proxy is its tx too.
    const db: typeof ctx.deps.db = new Proxy(ctx.deps.db, {
      get: (target, prop, receiver) =>
        prop === "insert"
          ? (table: unknown) =>
              table === eventSubmissions
                ? { values: () => ({ returning: () => Promise.reject(Object.assign(new Error("Failed query: insert ... params: leak@example.com"), { code: "57P01" })) }) }
                : target.insert(table as typeof eventSubmissions)
          : prop === "transaction"
            ? (run: (tx: typeof db) => Promise<unknown>) => run(db)
            : Reflect.get(target, prop, receiver),
    });
    const real = ctx.deps.db;
    ctx.deps.db = db;
    try {
      const res = await submit(valid({ hostEmail: "leak@example.com" }), { "x-forwarded-for": "192.0.2.51" });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ success: false, error: "Submission service unavailable" });
    } finally {
      ctx.deps.db = real;
    }
    expect(ctx.logs.some((l) => l.line.includes("Could not store a submission"))).toBe(true);
    expect(ctx.logs.some((l) => l.line.includes("leak@example.com"))).toBe(false);
  });

  test("markup, formulas and unicode are stored as text", async () => {
    const body = valid({ eventName: "<img src=x onerror=alert(1)> =1+1 Fête 🎉", notes: "'; drop table event_submissions; --" });
    expect((await submit(body)).status).toBe(200);
    const [row] = await stored();
    expect(row.payload.eventName).toBe("<img src=x onerror=alert(1)> =1+1 Fête 🎉");
    expect(row.payload.notes).toBe("'; drop table event_submissions; --");
  });

  test("bodies are capped at 64 KiB: a full 64 KiB body is read (400 for its field), one byte more is 413 and stores nothing, declared or chunked", async () => {
    const envelope = JSON.stringify(valid({ notes: "" }));
    const body = JSON.stringify(valid({ notes: "n".repeat(64 * 1024 - envelope.length) }));
    expect(body.length).toBe(64 * 1024);
    const res = await submit(body, { "content-length": String(body.length) });
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([{ field: "notes", message: "Notes must be at most 3000 characters", code: "tooLong", limit: 3000 }]);
    const over = body + " ";
    const declared = await submit(over, { "content-length": String(over.length) });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ success: false, error: "Submission too large" });
    // No Content-Length: the body is streamed and cut off at the cap.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 80; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    const chunked = await ctx.request("/api/event-submissions", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await stored()).toHaveLength(0);
  });

  test("a browser request from another site is 403 and stores nothing; the site's own origin and non-browser callers go through", async () => {
    const foreign = await submit(valid(), { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ success: false, error: "Cross-site request refused" });
    expect((await submit(valid(), { origin: "null" })).status).toBe(403);
    expect((await submit(valid(), { referer: "https://evil.example/page" })).status).toBe(403);
    expect(await stored()).toHaveLength(0);
    expect((await submit(valid(), { origin: "http://finder.test" })).status).toBe(200);
    expect((await submit(valid())).status).toBe(200);
    expect(await stored()).toHaveLength(2);
  });

  test("a host email with a control character is a field issue, never a 500", async () => {
    for (const hostEmail of ["host\u0000@example.com", "host@example.com\r\nBcc: x@y.z", "host\t@example.com", "host@example.com\n"]) {
      const res = await submit(valid({ hostEmail }));
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual([{ field: "hostEmail", message: "Host email must be a valid email address", code: "hostEmail" }]);
    }
    expect(await stored()).toHaveLength(0);
  });

  test("property: 1,000 random bodies never give a 5xx and store only valid submissions", async () => {
    const text = fc.oneof(fc.string({ maxLength: 50 }), fc.string({ unit: "binary", maxLength: 30 }), fc.constant(""));
    const junk = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
    const field = <T,>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 30, arbitrary: good }, { weight: 1, arbitrary: junk });
    const body = fc.record(
      {
        eventName: field(fc.string({ minLength: 2, maxLength: 190 })),
        date: field(fc.constantFrom("2026-06-21", "21 June", "2026-06-20", "x".repeat(41))),
        startTime: field(fc.constantFrom("18:00", "late", "20h30", "")),
        location: field(fc.string({ minLength: 1, maxLength: 250 })),
        hostEmail: field(fc.oneof({ weight: 6, arbitrary: fc.emailAddress() }, { weight: 1, arbitrary: fc.constant("bad") })),
        proofLink: field(fc.oneof({ weight: 6, arbitrary: fc.webUrl() }, { weight: 2, arbitrary: fc.constantFrom("example.com/x", "javascript:x", "ftp://a.b") })),
        notes: field(fc.string({ maxLength: 3100 })),
        // Mostly answers the 1-20 check takes, some random text it refuses.
        arrondissement: field(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("10", "11e", "75004", "unknown", "", "42") }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) })),
        honeypot: junk,
        formStartedAt: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), junk),
      },
      { requiredKeys: [] },
    );
    const samples = fc.sample(fc.oneof({ weight: 19, arbitrary: body.map((b) => JSON.stringify(b)) }, { weight: 1, arbitrary: fc.string() }), { numRuns: 1000, seed: 12 });
    let validCount = 0;
    for (let i = 0; i < samples.length; i++) {
      // A fresh IP per request keeps the per-IP and email+IP limits out of the way.
      const res = await submit(samples[i], { "x-forwarded-for": `10.9.${Math.floor(i / 250)}.${i % 250}` });
      expect(res.status).toBeLessThan(500);
      expect([200, 400, 429]).toContain(res.status);
      let parsed: ReturnType<typeof parseSubmission> | { ok: false };
      try {
        parsed = parseSubmission(JSON.parse(samples[i]));
      } catch {
        parsed = { ok: false };
      }
      // Valid: the fields parse and the sanity checks (festival dates, times, arrondissement) hold.
      const valid = parsed.ok && sanityIssues(parsed.input, festivalWindow(ctx.clock.now(), {})).length === 0;
      expect(res.status === 400).toBe(!valid);
      if (res.status === 200) validCount++;
    }
    const rows = await stored();
    expect(rows).toHaveLength(validCount);
    // The sanity checks refuse more of these bodies ("late" as a start time, random areas): still dozens go through.
    expect(validCount).toBeGreaterThan(50);
    for (const row of rows) {
      const again = parseSubmission(row.payload);
      expect(again.ok && sanityIssues(again.input, festivalWindow(ctx.clock.now(), {}))).toEqual([]);
    }
  }, 60_000);
});

describe("Idempotency-Key on submissions", () => {
  const KEY = "c0ffee00-1111-4222-8333-444455556666";

  test("the same key and body twice: one submission, one email queued, the same answer, and no 24-hour 429 on the retry", async () => {
    const body = valid();
    const first = await submit(body, { "idempotency-key": KEY });
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    for (let i = 0; i < 3; i++) {
      const again = await submit(body, { "idempotency-key": KEY });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(firstBody);
      expectNoStore(again);
    }
    const rows = await stored();
    expect(rows.map((r) => r.idempotency_key)).toEqual([KEY]);
    expect(rows[0]!.request_digest).toMatch(/^[0-9a-f]{64}$/);
    const outbox = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from outbox_messages`);
    expect(outbox[0]!.n).toBe(1);
    // The retries counted against no limit: one hit per scope.
    const counters = await ctx.deps.database.query<{ scope: string; count: number }>(sql`select scope, count from rate_limit_counters order by scope`);
    expect(counters.map((c) => c.count)).toEqual([1, 1, 1]);
  });

  test("the key in the body's idempotencyKey field works as the header does; the field is not part of what is compared", async () => {
    const body = valid();
    expect((await submit({ ...body, idempotencyKey: KEY })).status).toBe(200);
    expect((await submit(body, { "idempotency-key": KEY })).status).toBe(200);
    expect(await stored()).toHaveLength(1);
  });

  test("the key with another body is 409, a malformed key 400; nothing more is stored", async () => {
    const body = valid();
    expect((await submit(body, { "idempotency-key": KEY })).status).toBe(200);
    const other = await submit({ ...body, eventName: "Another Night Entirely" }, { "idempotency-key": KEY });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ success: false, error: "This Idempotency-Key was already used with another request" });
    for (const bad of ["short", "k".repeat(101), "with spaces inside it!"]) {
      const res = await submit(valid(), { "idempotency-key": bad });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Idempotency-Key must be 16 to 100 letters, digits or - _ . :" });
    }
    expect(await stored()).toHaveLength(1);
  });

  test("a submission refused mid-way (limiter unavailable at the content check) takes its rate-limit hits back", async () => {
    const limiter = ctx.deps.limiter;
    ctx.deps.limiter = {
      ...limiter,
      check: async (rule, parts, options) => (rule.scope === "event_submit_fingerprint" ? { status: "unavailable", allowed: false, keyHash: "x" } : limiter.check(rule, parts, options)),
    };
    try {
      expect((await submit(valid(), { "idempotency-key": KEY })).status).toBe(503);
    } finally {
      ctx.deps.limiter = limiter;
    }
    expect(await ctx.deps.database.query(sql`select * from rate_limit_counters`)).toEqual([]);
    expect((await submit(valid(), { "idempotency-key": KEY })).status).toBe(200);
    expect(await stored()).toHaveLength(1);
  });
});
