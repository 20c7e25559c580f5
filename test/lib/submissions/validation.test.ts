import { describe, expect, test } from "bun:test";
import { normaliseProofLink, parseSubmission, SUBMISSION_FIELDS, submissionFingerprint, type SubmissionInput } from "../../../src/lib/submissions/validation.ts";
import { evaluateSpamSignals } from "../../../src/lib/submissions/spam.ts";

const valid = {
  eventName: "Canal Sunset Session",
  date: "2026-06-21",
  startTime: "18:00",
  location: "Quai de Valmy, Paris",
  hostEmail: "host@example.com",
  proofLink: "https://example.com/event",
};

function issuesOf(body: unknown) {
  const parsed = parseSubmission(body);
  // The API's field and message; the form's code (and bound) are checked in test/pages/submit.test.ts.
  return parsed.ok ? [] : parsed.issues.map(({ field, message }) => ({ field, message }));
}

describe("submission fields", () => {
  test("a valid body is normalised: whitespace collapsed, email lower-cased, link completed", () => {
    const parsed = parseSubmission({ ...valid, eventName: "  Canal   Sunset\n\tSession ", hostEmail: " Host@Example.COM ", proofLink: "example.com/event", notes: "", genre: null, unknown: 1 });
    expect(parsed).toEqual({ ok: true, input: { ...valid, proofLink: "https://example.com/event" }, honeypot: undefined, formStartedAt: undefined });
  });

  for (const field of SUBMISSION_FIELDS) {
    const fill = (n: number) => (field.name === "hostEmail" ? `${"a".repeat(n - 12)}@example.com` : field.name === "proofLink" ? `https://x.com/${"a".repeat(n - 14)}` : "a".repeat(n));
    test(`${field.name}: ${field.min ?? (field.required ? 1 : 0)}–${field.max} characters`, () => {
      expect(issuesOf({ ...valid, [field.name]: fill(field.max) })).toEqual([]);
      expect(issuesOf({ ...valid, [field.name]: fill(field.max + 1) })).toEqual([{ field: field.name, message: `${field.label} must be at most ${field.max} characters` }]);
      if (field.min) {
        expect(issuesOf({ ...valid, [field.name]: "a".repeat(field.min) })).toEqual([]);
        expect(issuesOf({ ...valid, [field.name]: "a".repeat(field.min - 1) })).toEqual([{ field: field.name, message: `${field.label} must be at least ${field.min} characters` }]);
      }
      expect(issuesOf({ ...valid, [field.name]: ["array"] })).toEqual([{ field: field.name, message: `${field.label} must be text` }]);
      expect(issuesOf({ ...valid, [field.name]: 42 })).toEqual([{ field: field.name, message: `${field.label} must be text` }]);
      const absent = { ...valid, [field.name]: undefined };
      expect(issuesOf(absent)).toEqual(field.required ? [{ field: field.name, message: `${field.label} is required` }] : []);
      expect(issuesOf({ ...valid, [field.name]: null })).toEqual(field.required ? [{ field: field.name, message: `${field.label} is required` }] : []);
      expect(issuesOf({ ...valid, [field.name]: "   " })).toEqual(field.required ? [{ field: field.name, message: `${field.label} is required` }] : []);
      expect(issuesOf({ ...valid, [field.name]: "x".repeat(2_000_000) })).toEqual([{ field: field.name, message: `${field.label} must be at most ${field.max} characters` }]);
    });
  }

  test("lengths count characters after collapsing: 180 emoji fit the event name", () => {
    expect(issuesOf({ ...valid, eventName: "🎶".repeat(180) })).toEqual([]);
    expect(issuesOf({ ...valid, eventName: `${"a".repeat(90)}      ${"b".repeat(89)}` })).toEqual([]);
  });

  test("every issue is listed at once", () => {
    expect(issuesOf({}).map((i) => i.field)).toEqual(["eventName", "date", "startTime", "location", "hostEmail", "proofLink"]);
  });

  test.each([["not-an-email"], ["a@b"], ["a b@c.de"], ["@x.fr"]])("host email %p is refused", (hostEmail) => {
    expect(issuesOf({ ...valid, hostEmail })).toEqual([{ field: "hostEmail", message: "Host email must be a valid email address" }]);
  });

  test("markup, formulas and control characters are kept as text (controls dropped)", () => {
    const parsed = parseSubmission({ ...valid, eventName: '=HYPERLINK("http://x")<script>', notes: "a\u0000b\u0007c <b>bold</b>" });
    expect(parsed.ok && parsed.input.eventName).toBe('=HYPERLINK("http://x")<script>');
    expect(parsed.ok && parsed.input.notes).toBe("abc <b>bold</b>");
  });

  test("honeypot and formStartedAt never cause a validation error", () => {
    expect(parseSubmission({ ...valid, honeypot: ["x"], formStartedAt: { at: 1 } }).ok).toBe(true);
  });
});

describe("proof link", () => {
  test.each([
    ["https://example.com/e", "https://example.com/e"],
    ["http://example.com", "http://example.com/"],
    ["example.com/e?x=1", "https://example.com/e?x=1"],
    ["//example.com/e", "https://example.com/e"],
    ["www.instagram.com/p/abc", "https://www.instagram.com/p/abc"],
    ["localhost:3000/e", "https://localhost:3000/e"],
    ["http://192.168.1.10/x", "http://192.168.1.10/x"],
    ["HTTPS://Example.COM/Path", "https://example.com/Path"],
  ])("%p → %p", (raw, stored) => {
    expect(normaliseProofLink(raw)).toBe(stored);
  });

  test.each([["javascript:alert(1)"], ["mailto:a@b.co"], ["ftp://example.com"], ["data:text/html,x"], ["not a url"], ["intranet"], ["https://intranet/x"], ["file:///etc/passwd"]])("%p is refused", (raw) => {
    expect(normaliseProofLink(raw)).toBeUndefined();
    expect(issuesOf({ ...valid, proofLink: raw })).toEqual([{ field: "proofLink", message: "Proof link must be an HTTP(S) URL" }]);
  });
});

describe("fingerprint and spam signals", () => {
  test("the fingerprint joins name, date, start, location and link, lower-cased and collapsed", () => {
    const input = { ...valid, eventName: "Canal  SUNSET", proofLink: "https://example.com/E" } as SubmissionInput;
    expect(submissionFingerprint(input)).toBe("canal sunset|2026-06-21|18:00|quai de valmy, paris|https://example.com/e");
  });

  const now = new Date("2026-06-21T12:00:10.000Z");
  test.each([
    ["absent", undefined, undefined, { honeypotFilled: false, completedTooFast: false, completionSeconds: null, reasons: [] }],
    ["slow enough", "", "2026-06-21T12:00:06.000Z", { honeypotFilled: false, completedTooFast: false, completionSeconds: 4, reasons: [] }],
    ["too fast", null, "2026-06-21T12:00:06.001Z", { honeypotFilled: false, completedTooFast: true, completionSeconds: 4, reasons: ["completed_too_fast"] }],
    ["honeypot filled", "http://spam.example", "2026-06-21T11:00:00.000Z", { honeypotFilled: true, completedTooFast: false, completionSeconds: 3610, reasons: ["honeypot_filled"] }],
    ["honeypot blank", "   ", undefined, { honeypotFilled: false, completedTooFast: false, completionSeconds: null, reasons: [] }],
    ["honeypot not text", 1, undefined, { honeypotFilled: true, completedTooFast: false, completionSeconds: null, reasons: ["honeypot_filled"] }],
    ["both", "x", "2026-06-21T12:00:09.123Z", { honeypotFilled: true, completedTooFast: true, completionSeconds: 0.88, reasons: ["honeypot_filled", "completed_too_fast"] }],
    ["future start", undefined, "2026-06-21T12:05:00.000Z", { honeypotFilled: false, completedTooFast: false, completionSeconds: null, reasons: [] }],
    ["unparseable start", undefined, "yesterday-ish", { honeypotFilled: false, completedTooFast: false, completionSeconds: null, reasons: [] }],
    ["start not text", undefined, 1_781_000_000_000, { honeypotFilled: false, completedTooFast: false, completionSeconds: null, reasons: [] }],
  ])("%s", (_name, honeypot, startedAt, expected) => {
    expect(evaluateSpamSignals(honeypot, startedAt, now)).toEqual(expected);
  });
});
