// The edition comparison (see docs/insights.md, "Editions"): an edition against the one before at
// the same distance from the night (the ranges come from editions.ts), read for views, saves,
// searches, and the most applied genre and arrondissement filters, with the differences.

import type { Edition, EditionWindows } from "../events/editions.ts";
import { arrondissementShortLabel } from "../sheet/arrondissement.ts";
import { genreLabel } from "../sheet/genres.ts";
import { comparisonRanges, type ComparisonBasis, type EditionSpan } from "./editions.ts";
import { readEditionFigures, scopeOf, type EditionFigures, type MetricsDb } from "./metrics.ts";
import type { InsightsWindow } from "./window.ts";

/** How many genres and arrondissements each side ranks. */
export const COMPARISON_TOP = 5;

/** One ranked filter value: the tracked value, its label and how many times it was applied. */
export interface RankedValue {
  value: string;
  label: string;
  count: number;
}

/** One side of the comparison. */
export interface ComparisonSide extends EditionSpan {
  range: { startAt: string; endAt: string };
  views: number;
  saves: number;
  searches: number;
  topGenres: RankedValue[];
  topArrondissements: RankedValue[];
}

/** A ranked value on both sides: the union of both sides' top values. */
export interface RankedDifference {
  value: string;
  label: string;
  current: number;
  previous: number;
  difference: number;
}

export interface EditionComparison {
  basis: ComparisonBasis;
  daysBeforeNight: number;
  current: ComparisonSide;
  previous: ComparisonSide;
  /** current − previous. */
  difference: { views: number; saves: number; searches: number; topGenres: RankedDifference[]; topArrondissements: RankedDifference[] };
}

/** "11" → "11e", "unknown" → "TBC"; any other tracked value as it came. */
function arrondissementLabel(value: string): string {
  if (value === "unknown") return arrondissementShortLabel("unknown");
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 20) return arrondissementShortLabel(Number(value));
  return value;
}

/** The applied values of one group, as counts by value (the "Near me" chip is no arrondissement). */
function countsOf(figures: EditionFigures, group: "genre" | "arrondissement"): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of figures.filters) if (f.filterGroup === group && !(group === "arrondissement" && f.filterValue === "near_me")) counts.set(f.filterValue, f.count);
  return counts;
}

const byCountThenValue = (a: { count: number; value: string }, b: { count: number; value: string }) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function ranked(counts: Map<string, number>, label: (value: string) => string): RankedValue[] {
  return [...counts.entries()]
    .map(([value, count]) => ({ value, label: label(value), count }))
    .sort(byCountThenValue)
    .slice(0, COMPARISON_TOP);
}

function rankedDifference(current: RankedValue[], previous: RankedValue[], currentCounts: Map<string, number>, previousCounts: Map<string, number>, label: (value: string) => string): RankedDifference[] {
  const values = [...new Set([...current.map((r) => r.value), ...previous.map((r) => r.value)])];
  return values
    .map((value) => {
      const c = currentCounts.get(value) ?? 0;
      const p = previousCounts.get(value) ?? 0;
      return { value, label: label(value), current: c, previous: p, difference: c - p };
    })
    .sort((a, b) => b.current - a.current || b.previous - a.previous || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

async function readSide(db: MetricsDb, edition: EditionSpan, window: InsightsWindow) {
  const figures = await readEditionFigures(db, await scopeOf(db, window));
  const genres = countsOf(figures, "genre");
  const arrondissements = countsOf(figures, "arrondissement");
  const side: ComparisonSide = {
    ...edition,
    range: { startAt: window.start.toISOString(), endAt: window.end.toISOString() },
    views: figures.clickCount,
    saves: figures.calendarSyncCount,
    searches: figures.searchCount,
    topGenres: ranked(genres, genreLabel),
    topArrondissements: ranked(arrondissements, arrondissementLabel),
  };
  return { side, genres, arrondissements };
}

/** The comparison of `edition` with the edition before it at `now`. */
export async function readEditionComparison(db: MetricsDb, edition: Edition, windows: EditionWindows, now: Date): Promise<EditionComparison> {
  const ranges = comparisonRanges(edition, windows, now);
  const [current, previous] = await Promise.all([readSide(db, ranges.current.edition, ranges.current.window), readSide(db, ranges.previous.edition, ranges.previous.window)]);
  return {
    basis: ranges.basis,
    daysBeforeNight: ranges.daysBeforeNight,
    current: current.side,
    previous: previous.side,
    difference: {
      views: current.side.views - previous.side.views,
      saves: current.side.saves - previous.side.saves,
      searches: current.side.searches - previous.side.searches,
      topGenres: rankedDifference(current.side.topGenres, previous.side.topGenres, current.genres, previous.genres, genreLabel),
      topArrondissements: rankedDifference(current.side.topArrondissements, previous.side.topArrondissements, current.arrondissements, previous.arrondissements, arrondissementLabel),
    },
  };
}
