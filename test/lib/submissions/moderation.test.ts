import { beforeEach, describe, expect, test } from "bun:test";
import { useTestApp } from "../../helpers/app.ts";
import { storedTable } from "../../helpers/store.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { acceptSubmission, declineSubmission, listSubmissions, submissionDashboard, submissionSheetRow } from "../../../src/lib/submissions/moderation.ts";
import { submitEvent } from "../../../src/lib/submissions/submit.ts";
import { readSubmissionSettings, setSubmissionSettings, publicSubmissionSettings, SUBMISSION_SETTINGS_KEY } from "../../../src/lib/submissions/settings.ts";
import { readStoreSheet, saveStoreSheet } from "../../../src/lib/store/store.ts";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { SHEET_COLUMNS } from "../../../src/lib/sheet/columns.ts";
import type { Invalidation } from "../../../src/lib/serving/invalidation.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

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
      genre: "House, Disco",
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

describe("lists and dashboard", () => {
  test("lists per status newest first, at most the limit; dashboard counts reviews of the last 7 days", async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await received());
    await received({ honeypot: "bot" });
    expect((await listSubmissions(ctx.deps.db, "pending")).map((s) => s.id)).toEqual([...ids].reverse());
    expect(await listSubmissions(ctx.deps.db, "pending", 2)).toHaveLength(2);
    expect(await listSubmissions(ctx.deps.db, "declined")).toHaveLength(1);
    await declineSubmission(ctx.deps, ids[0], { reason: "duplicate_submission", reviewedBy: "admin" });
    ctx.clock.advance(8 * 86_400_000);
    await declineSubmission(ctx.deps, ids[1], { reason: "unable_to_verify", reviewedBy: "admin" });
    expect(await submissionDashboard(ctx.deps.db, ctx.clock.now())).toEqual({ totalCount: 6, pendingCount: 3, acceptedLast7Days: 0, declinedLast7Days: 1 });
  });
});

describe("decline", () => {
  test("needs a known reason; other needs a note; only from pending", async () => {
    const id = await received();
    expect(await declineSubmission(ctx.deps, id, { reason: "meh", reviewedBy: "a" })).toEqual({ ok: false, error: "Choose a reason for declining", reason: "invalid" });
    expect(await declineSubmission(ctx.deps, id, { reason: "other", note: "   ", reviewedBy: "a" })).toEqual({ ok: false, error: "Add a note explaining the reason", reason: "invalid" });
    const done = await declineSubmission(ctx.deps, id, { reason: "other", note: " Not in   Paris ", reviewedBy: "admin-1" });
    expect(done.ok && done.submission).toMatchObject({ status: "declined", reviewReason: "other", reviewNote: "Not in Paris", reviewedBy: "admin-1" });
    expect(await declineSubmission(ctx.deps, id, { reason: "spam_signal", reviewedBy: "admin-2" })).toEqual({ ok: false, error: "Already reviewed by another admin", reason: "conflict" });
    expect(await declineSubmission(ctx.deps, "8d7f0c7e-0000-4000-8000-000000000000", { reason: "spam_signal", reviewedBy: "a" })).toEqual({ ok: false, error: "Submission not found", reason: "not_found" });
    expect(await declineSubmission(ctx.deps, "not-a-uuid", { reason: "spam_signal", reviewedBy: "a" })).toMatchObject({ ok: false, reason: "not_found" });
  });
});

describe("accept", () => {
  test("appends the row at the end of the sheet, records the generated key and revalidates the homepage", async () => {
    await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
    const before = (await readStoreSheet(ctx.deps.db))!;
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    const id = await received();
    const result = await acceptSubmission(ctx.deps, id, { reviewedBy: "admin-1" });
    stop();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const after = (await readStoreSheet(ctx.deps.db))!;
    expect(storedTable(after).rows).toHaveLength(storedTable(before).rows.length + 1);
    expect(storedTable(after).rows.slice(0, -1)).toEqual(storedTable(before).rows);
    const last = Object.fromEntries(storedTable(after).headers.map((h, i) => [h, storedTable(after).rows.at(-1)![i]]));
    expect(last).toMatchObject({
      Title: `Rooftop Session ${n}`,
      Curated: "",
      Date: "2026-06-21",
      "Start Time": "19:00",
      "End Time": "23:30",
      "Host Country": "",
      Location: "Le Toit, Belleville",
      Area: "20",
      Price: "€10",
      Categories: "House, Disco",
      "Primary URL": `https://rooftop.example/${n}`,
      "Age Guidance": "18+",
      Setting: "Outdoor",
      Notes: "Sunset set.",
      Tags: "",
    });
    expect(last["Event Key"]).toMatch(/^evt_[0-9a-f]{16}$/);
    expect(result.acceptedEventKey).toBe(last["Event Key"]);
    expect(result.submission).toMatchObject({ status: "accepted", reviewReason: "accepted", reviewedBy: "admin-1", acceptedEventKey: last["Event Key"] });
    expect(after.meta.updatedBy).toBe("submission-accept");
    expect(seen.some((i) => i.paths?.includes("/"))).toBe(true);
    expect(await acceptSubmission(ctx.deps, id, { reviewedBy: "admin-2" })).toEqual({ ok: false, error: "Already reviewed by another admin", reason: "conflict" });
  });

  test("an empty store gets the canonical columns and the one row", async () => {
    const id = await received();
    const result = await acceptSubmission(ctx.deps, id, { reviewedBy: "admin" });
    expect(result.ok).toBe(true);
    const stored = (await readStoreSheet(ctx.deps.db))!;
    expect(storedTable(stored).headers.slice(0, SHEET_COLUMNS.length)).toEqual(SHEET_COLUMNS.map((c) => c.header));
    expect(storedTable(stored).rows).toHaveLength(1);
  });

  test("two admins accepting at once: one wins, the other is told, the sheet gets one row", async () => {
    const id = await received();
    const results = await Promise.all([acceptSubmission(ctx.deps, id, { reviewedBy: "a" }), acceptSubmission(ctx.deps, id, { reviewedBy: "b" })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, error: "Already reviewed by another admin", reason: "conflict" });
    expect(storedTable((await readStoreSheet(ctx.deps.db))!).rows).toHaveLength(1);
  });

  test("a failed save leaves the submission pending", async () => {
    const id = await received();
    const db = new Proxy(ctx.deps.db, { get: (t, p, r) => (p === "transaction" ? () => Promise.reject(new Error("disk full")) : Reflect.get(t, p, r)) });
    const result = await acceptSubmission({ ...ctx.deps, db }, id, { reviewedBy: "admin" });
    expect(result).toEqual({ ok: false, error: "Could not add the event to the sheet; the submission is still pending", reason: "failed" });
    const [pending] = await listSubmissions(ctx.deps.db, "pending");
    expect(pending).toMatchObject({ id, status: "pending", reviewedBy: null, reviewReason: null, acceptedEventKey: null });
  });

  test("hostile text goes into the sheet as text", () => {
    const headers = SHEET_COLUMNS.map((c) => c.header);
    const row = submissionSheetRow(headers, { eventName: '=IMPORTXML("x")', notes: "<script>", hostEmail: "secret@x.fr" });
    expect(row[0]).toBe('=IMPORTXML("x")');
    expect(row).not.toContain("secret@x.fr");
  });
});

describe("settings", () => {
  test("missing → open; set → stored with who and when, revalidates / and /submit-event", async () => {
    expect(await readSubmissionSettings(ctx.deps.kv)).toEqual({ version: 1, enabled: true, updatedAt: null, updatedBy: null });
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    expect((await setSubmissionSettings(ctx.deps, false, "admin-1")).message).toBe("Event submissions are now closed");
    stop();
    expect(seen).toEqual([{ paths: ["/", "/submit-event"] }]);
    const settings = await readSubmissionSettings(ctx.deps.kv);
    expect(settings).toEqual({ version: 1, enabled: false, updatedAt: "2026-06-18T10:00:00.000Z", updatedBy: "admin-1" });
    expect(publicSubmissionSettings(settings)).toEqual({ enabled: false, updatedAt: "2026-06-18T10:00:00.000Z" });
    expect((await setSubmissionSettings(ctx.deps, true, "admin-2")).message).toBe("Event submissions are now open");
    await ctx.deps.kv.set(SUBMISSION_SETTINGS_KEY, { version: 1, enabled: "no" });
    expect((await readSubmissionSettings(ctx.deps.kv)).enabled).toBe(true);
  });
});
