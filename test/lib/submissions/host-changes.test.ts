// The host's proposal rules (pure): fields normalised as the sheet reads them, the submission
// form's checks, only real changes kept, anything but the six editable fields ignored.

import { describe, expect, test } from "bun:test";
import { parseProposal } from "../../../src/lib/submissions/host-changes.ts";

const NOW = new Date("2026-06-18T10:00:00Z");
const PUBLISHED = { title: "Canal Session", eventKey: "evt_aaaaaaaaaaaaaaaa", startTime: "19:00", endTime: "23:00", location: "Quai de Valmy", area: "10", notes: "", primaryUrl: "https://canal.example/" };

describe("parseProposal", () => {
  test("keeps only the fields that change, normalised (time HH:MM, link with https://, whitespace collapsed)", () => {
    const parsed = parseProposal({ startTime: "21h30", endTime: "23:00", location: "  Quai   de Jemmapes ", primaryUrl: "canal.example/new", notes: "" }, PUBLISHED, NOW);
    expect(parsed).toEqual({
      ok: true,
      changes: {
        startTime: { before: "19:00", after: "21:30" },
        location: { before: "Quai de Valmy", after: "Quai de Jemmapes" },
        primaryUrl: { before: "https://canal.example/", after: "https://canal.example/new" },
      },
    });
  });

  test("an end after midnight (before 06:00) is allowed; an earlier end otherwise is refused", () => {
    expect(parseProposal({ endTime: "02:00" }, PUBLISHED, NOW)).toMatchObject({ ok: true, changes: { endTime: { after: "02:00" } } });
    expect(parseProposal({ endTime: "18:00" }, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ field: "endTime", code: "endBeforeStart" }] });
  });

  test("each bad field is named with its code; required fields cannot be emptied; optional ones can", () => {
    const parsed = parseProposal({ startTime: "late", area: "42", primaryUrl: "javascript:alert(1)", location: " ", notes: 5 }, PUBLISHED, NOW);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => `${i.field}:${i.code}`).sort()).toEqual(["location:required", "notes:text", "primaryUrl:link", "startTime:time"].sort());
    expect(parseProposal({ area: "42" }, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ field: "area", code: "arrondissement" }] });
    expect(parseProposal({ area: "", endTime: "" }, PUBLISHED, NOW)).toEqual({ ok: true, changes: { endTime: { before: "23:00", after: "" }, area: { before: "10", after: "" } } });
    expect(parseProposal({ notes: "x".repeat(3001) }, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ field: "notes", code: "tooLong" }] });
  });

  test("other fields are ignored; nothing changed is an issue; no body is an issue", () => {
    expect(parseProposal({ title: "Other", eventKey: "evt_bbbbbbbbbbbbbbbb", status: "cancelled", date: "2026-06-22" }, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ field: "body", code: "noChange" }] });
    expect(parseProposal({ startTime: "19:00" }, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ code: "noChange" }] });
    expect(parseProposal(undefined, PUBLISHED, NOW)).toMatchObject({ ok: false, issues: [{ field: "body" }] });
  });
});
