// The results fragment's links to nearby filter states (quick chips, removable chips, map areas)
// are kept per filter state without its search: two searches over the same filters must give the
// same fragment but for the search text itself, whichever came first.

import { describe, expect, test } from "bun:test";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { parseEventSheet } from "../../../src/lib/sheet/sheet.ts";
import { homeFiltersOf, homeListing } from "../../../src/pages/home/listing.ts";
import { HomeResults } from "../../../src/pages/home/home.view.tsx";
import { inLanguage, inSite, type Language } from "../../../src/lib/i18n/index.ts";
import { markup } from "../../../src/lib/http/responses.ts";
import { dayNightLabel } from "../../../src/lib/events/filter-labels.ts";
import Html from "@kitajs/html";

const parsed = parseEventSheet(FIXTURE_SHEET_CSV, { now: new Date("2026-06-01T10:00:00Z") });
if (!parsed.ok) throw new Error(parsed.error);
const events = parsed.events;

function fragment(query: string, now: Date): string {
  const { filters, moment } = homeFiltersOf(new URLSearchParams(query));
  const listing = homeListing(events, filters, now, 1, moment);
  return markup(HomeResults({ listing, now, feedUrl: "https://finder.example/calendar.ics", oob: true }));
}

const STATES = ["g=house", "pr=0:0&when=tonight", "df=2026-06-21&dt=2026-06-21&arr=11", "dn=night&nat=fr&when=now", ""];
const INSTANTS = [new Date("2026-06-21T19:30:00Z"), new Date("2026-05-01T10:00:00Z")];

describe("kept links of the results fragment", () => {
  test("a second search over the same filters links with its own search text", () => {
    const first = "zzqqxx one";
    const second = "zzqqxx two";
    for (const language of ["fr", "en"] as Language[]) {
      for (const basePath of ["", "/fete"]) {
        inSite({ basePath, rootLanguage: "fr" }, language, "/", () => {
          for (const now of INSTANTS) {
            for (const state of STATES) {
              const join = (q: string) => (state ? `${state}&q=${encodeURIComponent(q)}` : `q=${encodeURIComponent(q)}`);
              const a = fragment(join(first), now);
              const b = fragment(join(second), now);
              expect(a).toContain("zzqqxx+one");
              expect(b).not.toContain("zzqqxx+one");
              expect(b).toBe(a.replaceAll("zzqqxx+one", "zzqqxx+two"));
              // The removable chips are kept per language: French first, then English labels.
              if (state.includes("dn=night")) expect(a).toContain(`<span>${Html.escapeHtml(dayNightLabel("night"))}</span>`);
            }
          }
        });
      }
    }
  });
});
