// Admin API of moderation and the banner: lists with counts, accept (row appended, revision
// "submission", key returned), decline with reasons, 409 on a second review, the open/closed switch,
// the banner read and save with its invalidation; 401 and the CSRF 403 on each.

import { beforeEach, describe, expect, test } from "bun:test";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";
import { listRevisions } from "../../src/lib/store/revisions.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { BANNER_KV_KEY } from "../../src/lib/site/banner.ts";
import type { Invalidation } from "../../src/lib/serving/invalidation.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = ADMIN_KEY_HEADER;
const JSON_KEY = { ...KEY, "content-type": "application/json" };
let n = 0;

async function received(overrides: Record<string, unknown> = {}): Promise<string> {
  n++;
  const outcome = await submitEvent(
    ctx.deps,
    {
      eventName: `Rooftop Session ${n}`,
      date: "2026-06-21",
      startTime: "19:00",
      endTime: "23:30",
      location: "Le Toit, Belleville",
      hostEmail: `host${n}@example.com`,
      proofLink: `rooftop.example/${n}`,
      genre: "House",
      price: "€10",
      age: "18+",
      indoorOutdoor: "Outdoor",
      arrondissement: "20",
      notes: "Sunset set.",
      ...overrides,
    },
    `192.0.2.${n % 250}`,
  );
  if (outcome.kind !== "received") throw new Error(`not received: ${JSON.stringify(outcome)}`);
  ctx.clock.advance(1000);
  return outcome.id;
}

const post = (path: string, body?: unknown, headers: Record<string, string> = JSON_KEY) =>
  ctx.request(path, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
const put = (path: string, body: unknown, headers: Record<string, string> = JSON_KEY) => ctx.request(path, { method: "PUT", headers, body: JSON.stringify(body) });

describe("guard", () => {
  test("401 without a credential, 403 for a cookie from another origin, nothing changed", async () => {
    const id = await received();
    const { token } = await loginAsAdmin(ctx);
    const writes: [string, string, unknown][] = [
      ["POST", `/api/admin/submissions/${id}/accept`, {}],
      ["POST", `/api/admin/submissions/${id}/decline`, { reason: "duplicate_submission" }],
      ["PUT", "/api/admin/submissions/settings", { enabled: false }],
      ["PUT", "/api/admin/banner", { enabled: false }],
    ];
    for (const [method, path, body] of writes) {
      const anonymous = await ctx.request(path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect([path, anonymous.status]).toEqual([path, 401]);
      const cross = await ctx.request(path, { method, headers: { "content-type": "application/json", cookie: `finder_admin_session=${token}`, origin: "http://evil.example" }, body: JSON.stringify(body) });
      expect([path, cross.status]).toEqual([path, 403]);
    }
    for (const path of ["/api/admin/submissions", "/api/admin/submissions/settings", "/api/admin/banner"]) {
      expect([path, (await ctx.request(path)).status]).toEqual([path, 401]);
    }
    const list = await (await ctx.request("/api/admin/submissions", { headers: KEY })).json();
    expect(list.submissions.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(await ctx.deps.kv.get(BANNER_KV_KEY)).toBeUndefined();
  });
});

describe("submissions", () => {
  test("list per status with the counts; a bad status is a 400 with issues", async () => {
    const a = await received();
    await received();
    await received({ honeypot: "bot" });
    const res = await ctx.request("/api/admin/submissions?status=pending", { headers: KEY });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(body.submissions).toHaveLength(2);
    expect(body.submissions[1].id).toBe(a);
    expect(body.counts).toEqual({ totalCount: 3, pendingCount: 2, acceptedLast7Days: 0, declinedLast7Days: 1 });
    const declined = await (await ctx.request("/api/admin/submissions?status=declined", { headers: KEY })).json();
    expect(declined.submissions[0].spamSignals.honeypotFilled).toBe(true);
    const bad = await ctx.request("/api/admin/submissions?status=archived", { headers: KEY });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues[0].field).toBe("status");
  });

  test("accept appends the row with revision `submission` and returns its key; a second review is 409", async () => {
    await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    const id = await received({ eventName: "Accepted Rooftop" });
    const { token } = await loginAsAdmin(ctx);
    const res = await post(`/api/admin/submissions/${id}/accept`, {}, { cookie: `finder_admin_session=${token}`, origin: "http://finder.test", "content-type": "application/json" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.eventKey).toMatch(/^evt_[a-z0-9]{12,20}$/);
    expect(body.submission).toMatchObject({ id, status: "accepted", reviewReason: "accepted", acceptedEventKey: body.eventKey });
    const stored = await readStoreSheet(ctx.deps.db);
    const last = stored!.rows.at(-1)!;
    expect(last.values.title).toBe("Accepted Rooftop");
    expect(last.values.eventKey).toBe(body.eventKey);
    expect((await listRevisions(ctx.deps.db))[0]).toMatchObject({ trigger: "submission", rowsAdded: 1 });

    for (const [path, payload] of [
      [`/api/admin/submissions/${id}/accept`, {}],
      [`/api/admin/submissions/${id}/decline`, { reason: "duplicate_submission" }],
    ] as const) {
      const again = await post(path, payload);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({ success: false, error: "Already reviewed by another admin" });
    }
  });

  test("accept with a chosen key; a malformed key is a 400 with issues and changes nothing", async () => {
    const id = await received();
    const bad = await post(`/api/admin/submissions/${id}/accept`, { eventKey: "not a key" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues[0].field).toBe("eventKey");
    const wrongType = await post(`/api/admin/submissions/${id}/accept`, { eventKey: 12 });
    expect(wrongType.status).toBe(400);
    const ok = await post(`/api/admin/submissions/${id}/accept`, { eventKey: "evt_chosenkey0001" });
    expect(ok.status).toBe(200);
    expect((await ok.json()).eventKey).toBe("evt_chosenkey0001");
  });

  test("decline needs a reason, `other` needs a note; unknown ids are 404", async () => {
    const id = await received();
    for (const [payload, field] of [
      [{}, "reason"],
      [{ reason: "because" }, "reason"],
      [{ reason: "other" }, "note"],
      [{ reason: "other", note: "x".repeat(501) }, "note"],
    ] as const) {
      const res = await post(`/api/admin/submissions/${id}/decline`, payload);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.issues[0].field).toBe(field);
    }
    const ok = await post(`/api/admin/submissions/${id}/decline`, { reason: "other", note: "Private party" });
    expect(ok.status).toBe(200);
    expect((await ok.json()).submission).toMatchObject({ status: "declined", reviewReason: "other", reviewNote: "Private party" });
    for (const unknown of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      expect((await post(`/api/admin/submissions/${unknown}/accept`, {})).status).toBe(404);
    }
    expect((await post(`/api/admin/submissions/${id}/decline`, { reason: "spam_signal" })).status).toBe(409);
    expect((await ctx.request(`/api/admin/submissions/${id}/decline`, { method: "POST", headers: JSON_KEY, body: "[1]" })).status).toBe(400);
  });

  test("the switch: read, close (revalidates / and /submit-event), bad body 400", async () => {
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    try {
      expect(await (await ctx.request("/api/admin/submissions/settings", { headers: KEY })).json()).toEqual({ success: true, settings: { enabled: true, updatedAt: null } });
      const res = await put("/api/admin/submissions/settings", { enabled: false });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, message: "Event submissions are now closed", settings: { enabled: false, updatedAt: "2026-06-18T10:00:00.000Z" } });
      expect(seen.flatMap((i) => i.paths ?? [])).toEqual(["/", "/submit-event"]);
      const bad = await put("/api/admin/submissions/settings", { enabled: "no" });
      expect(bad.status).toBe(400);
      expect((await bad.json()).issues).toEqual([{ field: "enabled", message: "enabled must be true or false" }]);
    } finally {
      stop();
    }
  });
});

describe("banner", () => {
  test("a save shows at once on the cached homepage", async () => {
    expect((await ctx.request("/")).status).toBe(200);
    const cached = await ctx.request("/");
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(await cached.text()).not.toContain("Brand new banner line");
    const res = await put("/api/admin/banner", { enabled: true, messages: ["Brand new banner line"] });
    expect(res.status).toBe(200);
    expect(await (await ctx.request("/")).text()).toContain("Brand new banner line");
  });

  test("read defaults, save (invalidates /, /feature-event and the tag), refusals with issues", async () => {
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    try {
      const initial = await (await ctx.request("/api/admin/banner", { headers: KEY })).json();
      expect(initial.banner).toMatchObject({ enabled: true, messageDurationMs: 4200, desktopMessageCount: 2 });
      expect(initial.banner.messages).toHaveLength(4);

      const res = await put("/api/admin/banner", { enabled: true, messages: ["  Hello   Paris ", "", 7, "x".repeat(200)], messageDurationMs: 99999, desktopMessageCount: 1 });
      expect(res.status).toBe(200);
      const { banner } = await res.json();
      expect(banner).toMatchObject({ enabled: true, messages: ["Hello Paris", "x".repeat(160)], messageDurationMs: 12000, desktopMessageCount: 1, updatedBy: "admin-key" });
      expect(seen).toEqual([{ paths: ["/", "/feature-event"], tags: ["sliding-banner"] }]);

      const empty = await put("/api/admin/banner", { enabled: true, messages: [" "] });
      expect(empty.status).toBe(400);
      expect(await empty.json()).toEqual({ success: false, error: "Banner needs at least one message when enabled", issues: [{ field: "messages", message: "Banner needs at least one message when enabled" }] });

      const wrong = await put("/api/admin/banner", { enabled: "yes", messages: "one", messageDurationMs: "fast", desktopMessageCount: 3 });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).issues.map((i: { field: string }) => i.field)).toEqual(["enabled", "messages", "messageDurationMs", "desktopMessageCount"]);
      expect(seen).toHaveLength(1);
      expect((await (await ctx.request("/api/admin/banner", { headers: KEY })).json()).banner.messages).toEqual(["Hello Paris", "x".repeat(160)]);
    } finally {
      stop();
    }
  });
});
