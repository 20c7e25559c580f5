// Event keys and slugs (§3): validation, fingerprint, generation, salting, the uniqueness pass and occurrences.

import { describe, expect, test } from "bun:test";
import {
  assignEventKeys,
  eventFingerprint,
  generateEventKey,
  generateOccurrenceKey,
  isValidEventKey,
  normaliseEventKey,
  slugify,
} from "../../../src/lib/sheet/keys.ts";

/** Independent reference: `evt_` + first 16 hex of SHA-256. */
function sha16(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

const CELLS = { title: "  Canal  Sound System ", date: "2026-06-21", startTime: "16:00", location: "Canal Saint-Martin", area: "" };
const FINGERPRINT = "title:canal sound system|date:2026-06-21|startTime:16:00|location:canal saint-martin|area:";

describe("validation", () => {
  test.each([
    ["evt_abcdef123456", "evt_abcdef123456"],
    ["  EVT_ABCDEF123456  ", "evt_abcdef123456"],
    ["evt_abcdefghijklmnopqrst", "evt_abcdefghijklmnopqrst"],
    ["evt_abcdef12345", null],
    ["evt_abcdefghijklmnopqrstu", null],
    ["evt_abc-def-123456", null],
    ["ser_abcdef123456", null],
    ["", null],
  ])("%p → %p", (raw, key) => {
    expect(normaliseEventKey(raw)).toBe(key);
    expect(isValidEventKey(raw)).toBe(key !== null);
  });
});

describe("generation", () => {
  test("the fingerprint pairs folded raw cells in a fixed order", () => {
    expect(eventFingerprint(CELLS)).toBe(FINGERPRINT);
    expect(eventFingerprint({ ...CELLS, title: "CANAL SOUND SYSTÈM" })).toBe(FINGERPRINT);
    expect(eventFingerprint({ ...CELLS, area: " 10e " })).toBe(`${FINGERPRINT}10e`);
  });

  test("the key is evt_ + 16 hex of SHA-256 of the fingerprint, and deterministic", () => {
    const key = generateEventKey(FINGERPRINT);
    expect(key).toBe(`evt_${sha16(FINGERPRINT)}`);
    expect(key).toBe("evt_" + sha16("title:canal sound system|date:2026-06-21|startTime:16:00|location:canal saint-martin|area:"));
    expect(generateEventKey(FINGERPRINT)).toBe(key);
    expect(isValidEventKey(key)).toBe(true);
  });

  test("a taken key is salted with |salt:1, |salt:2 …", () => {
    const first = `evt_${sha16(FINGERPRINT)}`;
    const salt1 = `evt_${sha16(`${FINGERPRINT}|salt:1`)}`;
    const salt2 = `evt_${sha16(`${FINGERPRINT}|salt:2`)}`;
    expect(generateEventKey(FINGERPRINT, new Set([first]))).toBe(salt1);
    expect(generateEventKey(FINGERPRINT, new Set([first, salt1]))).toBe(salt2);
  });

  test("occurrence keys hash the fingerprint plus |occurrence:<date>, salted the same way", () => {
    const base = `${FINGERPRINT}|occurrence:2026-06-20`;
    expect(generateOccurrenceKey(FINGERPRINT, "2026-06-20")).toBe(`evt_${sha16(base)}`);
    expect(generateOccurrenceKey(FINGERPRINT, "2026-06-20", new Set([`evt_${sha16(base)}`]))).toBe(`evt_${sha16(`${base}|salt:1`)}`);
  });
});

describe("assignEventKeys (uniqueness pass)", () => {
  const row = (title: string, eventKey = "") => ({ title, date: "2026-06-21", startTime: "", location: "", area: "", eventKey });
  const generated = (title: string) => `evt_${sha16(`title:${title}|date:2026-06-21|startTime:|location:|area:`)}`;

  test("keeps valid keys, generates missing and invalid ones, re-keys later duplicates", () => {
    const result = assignEventKeys([
      row("A", "EVT_AAAAAAAAAAAA"),
      row("B"),
      row("C", "not-a-key"),
      row("D", "evt_aaaaaaaaaaaa"),
      row("E", "evt_eeeeeeeeeeee"),
    ]);
    expect(result.keys).toEqual(["evt_aaaaaaaaaaaa", generated("b"), generated("c"), generated("d"), "evt_eeeeeeeeeeee"]);
    expect(result.outcomes).toEqual(["kept", "missing", "invalid", "duplicate", "kept"]);
    expect(result.missingEventKeyCount).toBe(2);
    expect(result.generatedEventKeyCount).toBe(3);
  });

  test("identical rows without keys get salted keys in sheet order", () => {
    const result = assignEventKeys([row("Same"), row("Same"), row("Same")]);
    const fp = "title:same|date:2026-06-21|startTime:|location:|area:";
    expect(result.keys).toEqual([`evt_${sha16(fp)}`, `evt_${sha16(`${fp}|salt:1`)}`, `evt_${sha16(`${fp}|salt:2`)}`]);
  });

  test("an explicit key equal to an earlier generated key is re-keyed", () => {
    const result = assignEventKeys([row("A"), row("Z", generated("a"))]);
    expect(result.outcomes).toEqual(["missing", "duplicate"]);
    expect(result.keys[1]).toBe(generated("z"));
  });

  test("a stored key survives edits to every field", () => {
    const before = assignEventKeys([row("Old title", "evt_keepmekeepme")]).keys;
    const after = assignEventKeys([{ ...row("New title", "evt_keepmekeepme"), location: "Elsewhere", startTime: "22:00" }]).keys;
    expect(after).toEqual(before);
  });
});

describe("slugify", () => {
  test.each([
    ["IMERSIV Summer Party - Day 1", "imersiv-summer-party-day-1"],
    ["  Fête de la Musique!! ", "fete-de-la-musique"],
    ["R&B / Afro House", "r-b-afro-house"],
    ["<script>alert(1)</script>", "script-alert-1-script"],
    ["🇬🇧🇫🇷", "event"],
    ["", "event"],
    ["---", "event"],
    [`${"a".repeat(79)} b`, "a".repeat(79)],
    ["a".repeat(100), "a".repeat(80)],
  ])("%p → %p", (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });
});
