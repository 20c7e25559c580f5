// The forgiving search over 2,000 events (timed in this process: a function, not a server): the
// same word searched as written in the list (exact), with other accents and spacing (folded) and
// with a typo (fuzzy), side by side, each as a ratio to the exact search of the same run. Also the
// one-off cost of a list's search index, against the live read's own parse of the same sheet.

import { filterEvents } from "../src/lib/events/filter-match.ts";
import { parseFilters } from "../src/lib/events/filter-query.ts";
import { searchIndexOf } from "../src/lib/events/search.ts";
import { ARRONDISSEMENT_LANDMARKS } from "../src/lib/sheet/arrondissement.ts";
import { GENRES } from "../src/lib/sheet/genres.ts";
import { parseEventSheet } from "../src/lib/sheet/sheet.ts";
import { fold } from "../src/lib/sheet/text.ts";
import type { LiveEvent } from "../src/lib/sheet/types.ts";

const PLACES = Object.values(ARRONDISSEMENT_LANDMARKS).flat();
const NOUNS = ["Night", "Soirée", "Session", "Bal", "Jam", "Sunset", "Block Party", "Fête", "Concert", "Open Air"];
const WORDS = "musique live scène ouverte dj set groupe chorale fanfare quartier terrasse jardin péniche rooftop club cave bar salle parc square quai".split(" ");

/** A 2,000-row sheet with varied titles, venues and notes (places, genres, French and English words). */
export function searchSheet(rows = 2000): string {
  const lines = ["Title,Date,Start Time,End Time,Location,Area,Price,Categories,Setting,Notes"];
  for (let i = 0; i < rows; i++) {
    const place = PLACES[i % PLACES.length]!;
    const genre = GENRES[(i * 7) % GENRES.length]!.label;
    const noun = NOUNS[(i * 3) % NOUNS.length]!;
    const venue = `${WORDS[(i * 5) % WORDS.length]} ${place} ${i % 97}`;
    const notes = Array.from({ length: 12 }, (_, j) => WORDS[(i + j * 11) % WORDS.length]).join(" ");
    lines.push([`"${place} ${genre} ${noun} ${i}"`, `2026-06-${19 + (i % 4)}`, `${12 + (i % 12)}:00`, `${(i % 6) + 1}:00`, `"${venue}"`, String((i % 20) + 1), i % 4 ? `€${i % 40}` : "Free", `"${genre}"`, i % 2 ? "Indoor" : "Outdoor", `"${notes}"`].join(","));
  }
  return `${lines.join("\n")}\n`;
}

function time(runs: number, fn: () => unknown): number {
  fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - started) / runs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The former search, as a floor: one folded text per event, searched for the folded query as a plain substring. */
function substringSearch(events: readonly LiveEvent[], haystacks: readonly string[], q: string): LiveEvent[] {
  const needle = fold(q);
  return events.filter((_, i) => haystacks[i]!.includes(needle));
}

export async function benchSearch(): Promise<void> {
  const csv = searchSheet();
  const parsed = parseEventSheet(csv);
  if (!parsed.ok) throw new Error(parsed.error);
  const events: readonly LiveEvent[] = parsed.events;

  // The index is built once per list (its postings on the list's first search): its cost against parsing the same sheet.
  const parse = time(5, () => parseEventSheet(csv));
  const buildStarted = performance.now();
  void searchIndexOf(events.slice()).postings;
  const build = performance.now() - buildStarted;

  const queries: [label: string, q: string][] = [
    ["exact   (Batignolles)", "Batignolles"],
    ["folded  (batignollés, accents and case)", "batignollés"],
    ["folded  (canal saint martin, hyphen)", "canal saint martin"],
    ["synonym (afrohouse)", "afrohouse"],
    ["fuzzy   (Baitgnolles, one swap)", "Baitgnolles"],
    ["fuzzy   (canal saint matrin, two words)", "canal saint matrin"],
  ];
  // Rounds interleave the queries so a busy machine slows them all alike; each figure is the median round.
  const haystacks = events.map((event) => [event.eventName, event.location ?? "", event.description, ...event.genres].map(fold).join("\n"));
  const cases = [
    { label: "former rule: folded substring (Batignolles)", found: substringSearch(events, haystacks, "Batignolles").length, run: () => substringSearch(events, haystacks, "Batignolles"), samples: [] as number[] },
    ...queries.map(([label, q]) => {
      const filters = parseFilters({ q });
      return { label, found: filterEvents(events, filters).length, run: () => filterEvents(events, filters), samples: [] as number[] };
    }),
  ];
  for (let round = 0; round < 9; round++) for (const c of cases) c.samples.push(time(5, c.run));
  const exact = median(cases[1]!.samples);
  console.log(`search over ${events.length.toLocaleString("en")} events (ms per query, median of 9 rounds; ratio to the exact search of this run)`);
  for (const c of cases) {
    const ms = median(c.samples);
    console.log(`  ${c.label.padEnd(46)} ${ms.toFixed(2).padStart(7)} ms  ${(ms / exact).toFixed(2).padStart(5)}x exact  (${c.found} found)`);
  }
  console.log(`  ${"search index, once per built list".padEnd(46)} ${build.toFixed(1).padStart(7)} ms  ${(build / parse).toFixed(2).padStart(5)}x parsing the sheet (${parse.toFixed(1)} ms)`);
}
