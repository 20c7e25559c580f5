// Search clustering for the Top Search Queries block (see docs/insights.md, "Search clustering"):
// queries are normalised, then grouped greedily, most frequent first, in conservative mode (same
// form or a small edit distance between compact forms) or aggressive mode (also token-set Jaccard
// and containment). Edit distance comes from fastest-levenshtein.

import { distance } from "fastest-levenshtein";
import { searchWords } from "../sheet/text.ts";

export const CLUSTER_MODES = ["conservative", "aggressive"] as const;
export type ClusterMode = (typeof CLUSTER_MODES)[number];

/** One stored query and how many times it was searched. */
export interface QueryCount {
  query: string;
  count: number;
}

/** One cluster: its representative query, total count and its variants. */
export interface SearchCluster {
  query: string;
  count: number;
  variantCount: number;
  variants: QueryCount[];
}

/** Reads a cluster mode: absent → conservative; an unknown value → undefined (the caller answers 400). */
export function parseClusterMode(raw: unknown): ClusterMode | undefined {
  if (raw === undefined || raw === null || raw === "") return "conservative";
  return typeof raw === "string" && (CLUSTER_MODES as readonly string[]).includes(raw.trim().toLowerCase()) ? (raw.trim().toLowerCase() as ClusterMode) : undefined;
}

const SYNONYMS: ReadonlyArray<[RegExp, string]> = [
  [/(^| )afrohouse( |$)/g, "$1afro house$2"],
  [/(^| )rnb( |$)/g, "$1r&b$2"],
  [/(^| )r and b( |$)/g, "$1r&b$2"],
  [/(^| )hiphop( |$)/g, "$1hip hop$2"],
  [/(^| )ukg( |$)/g, "$1uk garage$2"],
];

/**
 * The normalised form of a query: its search words (searchWords: accents removed, lower-case,
 * œ/æ/ß spelt out, split at every run of characters other than letters, digits and `&`) joined
 * with single spaces; then the synonyms afrohouse/afro-house →
 * afro house, rnb/r and b → r&b, hiphop → hip hop, ukg → uk garage (whole words).
 */
export function normaliseQuery(query: string): string {
  // The search's own folding (lib/sheet/text.ts, searchWords), so a query clusters as it searches.
  let text = searchWords(query).join(" ");
  for (const [pattern, replacement] of SYNONYMS) {
    // Applied twice so adjacent matches ("rnb rnb") share the space between them.
    text = text.replace(pattern, replacement).replace(pattern, replacement);
  }
  return text;
}

/** The compact form: the normalised form without spaces. */
export function compactQuery(normalised: string): string {
  return normalised.replace(/ /g, "");
}

interface Variant extends QueryCount {
  normalised: string;
  compact: string;
  tokens: Set<string>;
}

function variantOf(q: QueryCount): Variant {
  const normalised = normaliseQuery(q.query);
  return { ...q, normalised, compact: compactQuery(normalised), tokens: new Set(normalised.split(" ").filter(Boolean)) };
}

function conservativeMatch(a: Variant, b: Variant): boolean {
  // A query with nothing left after normalisation (emoji only, punctuation) joins only itself.
  if (a.compact === "" || b.compact === "") return a.query === b.query;
  if (a.normalised === b.normalised || a.compact === b.compact) return true;
  const shorter = Math.min(a.compact.length, b.compact.length);
  const limit = shorter <= 6 ? 1 : 2;
  if (Math.abs(a.compact.length - b.compact.length) > limit) return false;
  return distance(a.compact, b.compact) <= limit;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

function aggressiveMatch(a: Variant, b: Variant): boolean {
  if (conservativeMatch(a, b)) return true;
  if (a.compact === "" || b.compact === "") return false;
  if (jaccard(a.tokens, b.tokens) >= 0.8) return true;
  const [short, long] = a.compact.length <= b.compact.length ? [a.compact, b.compact] : [b.compact, a.compact];
  return short.length >= 5 && long.includes(short);
}

const byCountThenText = (a: QueryCount, b: QueryCount) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0);

/**
 * Groups queries into clusters. Variants, by count descending then text, each join the first
 * cluster whose representative (its most frequent variant) is similar, else start one. Clusters
 * come out by count descending (then representative text); variants by count, then text.
 */
export function clusterQueries(queries: readonly QueryCount[], mode: ClusterMode, limit = 20): SearchCluster[] {
  const similar = mode === "aggressive" ? aggressiveMatch : conservativeMatch;
  const sorted = [...queries].filter((q) => q.count > 0).sort(byCountThenText).map(variantOf);
  const clusters: { representative: Variant; variants: Variant[]; count: number }[] = [];
  for (const variant of sorted) {
    const home = clusters.find((c) => similar(c.representative, variant));
    if (home) {
      home.variants.push(variant);
      home.count += variant.count;
    } else clusters.push({ representative: variant, variants: [variant], count: variant.count });
  }
  return clusters
    .map((c) => ({
      query: c.representative.query,
      count: c.count,
      variantCount: c.variants.length,
      variants: c.variants.map((v) => ({ query: v.query, count: v.count })).sort(byCountThenText),
    }))
    .sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    .slice(0, limit);
}
