// The forgiving search (see docs/filters-and-search.md, "Search"): folding, genre synonyms, the
// words of the quick chips and settings, typo tolerance, the exact / folded / fuzzy ranking and the
// "Did you mean" suggestion. Every searched text goes through searchWords (lib/sheet/text.ts), the
// one folding rule shared by the query and the fields.
//
// Cost: the search text of each event (exact, compact and word forms) is built once per event
// object and language, and the list's vocabulary and postings (which events hold each word, each
// word start of 1–3 characters and each genre) once per built list and language. A query then
// costs one pass over the vocabulary for each typo-tolerant word not seen yet, a few look-ups in
// the postings per term (searchCandidates), and the matcher on the candidates they leave only:
// the matcher stays the judge, the postings only skip events it would reject.

import distance from "damerau-levenshtein";
import { distance as levenshteinDistance } from "fastest-levenshtein";
import { ARRONDISSEMENT_CENTRES, arrondissementShortLabel } from "../sheet/arrondissement.ts";
import { GENRE_ALIASES, GENRES, genreLabel } from "../sheet/genres.ts";
import { compactSearchText, searchWords, searchWordsAsWritten } from "../sheet/text.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { catalogue, currentLanguage, inLanguage, LANGUAGES, type Language, type MessageKey } from "../i18n/index.ts";
import { memoised, memoisedPerObject } from "../memo/memo.ts";
import { originOf } from "./projections.ts";
import { parisDate } from "../paris-time.ts";
import { runsAt } from "./filter-moment.ts";

// ---------------------------------------------------------------------------------------------
// Typo tolerance

/** Query words shorter than this are never matched by typo. */
export const FUZZY_MIN_LENGTH = 5;

/**
 * Edits allowed for a typo in a query word of `length` letters (optimal string alignment: an
 * insertion, deletion, substitution or swap of two neighbours counts one): none below 5 letters,
 * 1 for 5–7, 2 from 8.
 */
export function typoAllowance(length: number): number {
  return length >= 8 ? 2 : length >= FUZZY_MIN_LENGTH ? 1 : 0;
}

/** Edits allowed when looking for a suggestion ("Did you mean"): one more than a match allows, from 3 letters. */
export function suggestionAllowance(length: number): number {
  return length < 3 ? 0 : typoAllowance(length) + 1;
}

/** Optimal string alignment distance (transpositions count one), from damerau-levenshtein. */
export function editDistance(a: string, b: string): number {
  return distance(a, b).steps;
}

const DIGIT = /\d/;

/**
 * True when `a` and `b` are at most `allowance` edits apart (optimal string alignment). The
 * Levenshtein distance of fastest-levenshtein (bit-parallel, far cheaper) settles most pairs: the
 * alignment distance is never above it, and never below half of it (a swap is two Levenshtein
 * edits); only the pairs in between are measured with damerau-levenshtein.
 */
export function withinEdits(a: string, b: string, allowance: number): boolean {
  if (Math.abs(a.length - b.length) > allowance) return false;
  const levenshtein = levenshteinDistance(a, b);
  if (levenshtein <= allowance) return true;
  if (levenshtein > 2 * allowance) return false;
  return editDistance(a, b) <= allowance;
}

// True when `word`, or one of its prefixes, is within `allowance` edits of `term` (so a half-typed word with a typo still matches).
function withinTypos(term: string, word: string, allowance: number): boolean {
  if (word.length + allowance < term.length) return false;
  if (withinEdits(term, word, allowance)) return true;
  for (let length = Math.max(1, term.length - allowance); length <= term.length + allowance && length < word.length; length++) {
    if (withinEdits(term, word.slice(0, length), allowance)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Words of the chips and settings, and the genre synonyms

/** What a chip or setting word in the query asks for. */
export type SearchKeyword = "free" | "now" | "tonight" | "today" | "outdoor" | "indoor";

/** The catalogue labels each keyword is typed as, in every language (the chips' and settings' own labels). */
const KEYWORD_LABELS: Readonly<Record<SearchKeyword, readonly MessageKey[]>> = {
  free: ["home.quick.free"],
  now: ["home.quick.now", "moment.now"],
  tonight: ["home.quick.tonight", "moment.tonight"],
  today: ["home.quick.today"],
  outdoor: ["filter.venue.outdoor"],
  indoor: ["filter.venue.indoor"],
};

/** Other ways of typing them, French and English. */
const KEYWORD_WORDS: Readonly<Record<SearchKeyword, readonly string[]>> = {
  free: ["gratuit", "gratuite", "gratuits", "gratos", "entrée libre", "free entry"],
  now: ["maintenant", "en ce moment", "right now"],
  tonight: ["ce soir", "cette nuit", "tonite"],
  today: ["aujourd'hui", "today"],
  outdoor: ["plein air", "en plein air", "open air", "dehors", "outside", "extérieur"],
  indoor: ["intérieur", "en salle", "inside"],
};

/** The test each keyword stands for, at one clock reading. */
function keywordHolds(keyword: SearchKeyword, event: LiveEvent, now: Date): boolean {
  switch (keyword) {
    case "free":
      return event.priceValue === 0;
    case "now":
    case "tonight":
      return runsAt(event, keyword, now);
    case "today":
      return event.date === parisDate(now);
    case "outdoor":
    case "indoor":
      return event.venueTypes.includes(keyword);
  }
}

/** What one phrase of the query can stand for besides its own text. */
interface PhraseMeaning {
  genres: string[];
  keywords: SearchKeyword[];
}

/**
 * Compact phrase → meaning: every genre key, label and alias of the genre table (except `other`)
 * and every keyword spelling. Built once.
 */
const PHRASES: ReadonlyMap<string, PhraseMeaning> = (() => {
  const phrases = new Map<string, PhraseMeaning>();
  const meaning = (phrase: string): PhraseMeaning | undefined => {
    const compact = compactSearchText(phrase);
    if (compact === "") return undefined;
    let found = phrases.get(compact);
    if (!found) phrases.set(compact, (found = { genres: [], keywords: [] }));
    return found;
  };
  for (const genre of GENRES) {
    if (genre.key === "other") continue;
    for (const spelling of [genre.key, genre.label, ...(GENRE_ALIASES[genre.key] ?? [])]) {
      const found = meaning(spelling);
      if (found && !found.genres.includes(genre.key)) found.genres.push(genre.key);
    }
  }
  for (const [keyword, keys] of Object.entries(KEYWORD_LABELS) as [SearchKeyword, readonly MessageKey[]][]) {
    const labels = LANGUAGES.flatMap((language) => keys.map((key) => catalogue(language)[key])).filter((label): label is string => typeof label === "string");
    for (const spelling of [...labels, ...KEYWORD_WORDS[keyword]]) {
      const found = meaning(spelling);
      if (found && !found.keywords.includes(keyword)) found.keywords.push(keyword);
    }
  }
  return phrases;
})();

/** The longest known phrase, in words ("musique de chambre", "rock n roll"). */
const LONGEST_PHRASE_WORDS = 4;

// ---------------------------------------------------------------------------------------------
// The search text of an event

/** The searched fields of an event, as written. */
function searchedFields(event: LiveEvent): string[] {
  const arr = event.arrondissement;
  const fields: string[] = [event.eventName, event.location ?? "", event.description, event.date, event.day, String(arr), arrondissementShortLabel(arr)];
  if (typeof arr === "number") fields.push(arrondissementName(arr));
  for (const genre of event.genres) fields.push(genre, genreLabel(genre));
  fields.push(event.type, event.category ?? "");
  for (const tag of event.tags) fields.push(tag);
  for (const code of event.nationality) fields.push(code);
  return fields.filter((field) => field !== "");
}

/** The name of an arrondissement ("Batignolles-Monceau"): its map label without the number. */
export function arrondissementName(arr: number): string {
  return ARRONDISSEMENT_CENTRES[arr]?.label.replace(/^\S+\s+-\s+/, "") ?? "";
}

/** An event's search text, built once per event object. */
export interface SearchEntry {
  /** The fields lower-cased as written (accents kept), "\n" between them: the exact match. */
  lower: string;
  /** Each field's search words joined without separators, "\n" between fields: the folded match. */
  compact: string;
  /** 1 where a word starts in `compact`: a match must start at a word ("rap" is not found in "trap"). */
  starts: Uint8Array;
  /** The search words: the typo match, whole or as the start of a word. */
  words: ReadonlySet<string>;
  /** Each pair of neighbouring words of a field joined ("saintmartin"): the typo match of a word typed without its space. */
  pairs: ReadonlySet<string>;
}

// One entry per event object and language: an unknown arrondissement is searched by the
// catalogue's "to be confirmed" label of the search's language ("TBC" / "à confirmer").
const entries = new WeakMap<LiveEvent, Partial<Record<Language, SearchEntry>>>();

function buildEntry(event: LiveEvent): SearchEntry {
  const lowered: string[] = [];
  let compact = "";
  const startAt: number[] = [];
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const field of searchedFields(event)) {
    lowered.push(field.toLowerCase().replace(/\s+/g, " "));
    const fieldWords = searchWords(field);
    if (fieldWords.length === 0) continue;
    fieldWords.forEach((word, i) => {
      startAt.push(compact.length);
      compact += word;
      words.add(word);
      if (i > 0) pairs.add(fieldWords[i - 1] + word);
    });
    compact += "\n";
  }
  const starts = new Uint8Array(compact.length);
  for (const at of startAt) starts[at] = 1;
  return { lower: `${lowered.join("\n")}\n`, compact, starts, words, pairs };
}

/**
 * The search text of an event in the current language, cached per built event and language: the
 * live reader's projected copies share their origin's (projections never change the searched
 * text; projections.ts, originOf).
 */
export function searchEntry(event: LiveEvent, language: Language = currentLanguage()): SearchEntry {
  const origin = originOf(event);
  let byLanguage = entries.get(origin);
  if (byLanguage === undefined) entries.set(origin, (byLanguage = {}));
  return (byLanguage[language] ??= inLanguage(language, () => buildEntry(origin)));
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

// `needle` at the start of a word of the exact (lower-cased) text.
function exactAtWordStart(lower: string, needle: string): boolean {
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    if (at === 0 || !WORD_CHARACTER.test(lower[at - 1]!)) return true;
  }
  return false;
}

// `needle` (compact) starting at a word of the folded text; it may run on over the next words of the same field.
function foldedAtWordStart(entry: SearchEntry, needle: string): boolean {
  const { compact, starts } = entry;
  for (let at = compact.indexOf(needle); at >= 0; at = compact.indexOf(needle, at + 1)) {
    if (starts[at] === 1) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The list's vocabulary, built once per list

/** A suggestion word: how it is written and in how many events it appears. */
interface SuggestionWord {
  written: string;
  weight: number;
}

/** What a search needs of a whole list, built once per list object. */
export interface SearchIndex {
  /** The search text of each event, in list order (no per-event lookup while matching the list). */
  entries: readonly SearchEntry[];
  /** The words, then the neighbouring pairs, by first letter: a typo is looked for among those that start like the query word (see typoCandidates). */
  wordsByInitial: ReadonlyMap<string, readonly string[]>;
  pairsByInitial: ReadonlyMap<string, readonly string[]>;
  /** Words of titles, venues, genres and arrondissement names, for "Did you mean" (built on first use: most searches never need it). */
  readonly suggestions: ReadonlyMap<string, SuggestionWord>;
  /** The near words of each typo-tolerant query word asked so far (see nearWordsOf), at most NEAR_WORDS_KEPT. */
  near: Map<string, readonly string[]>;
  /** Which events hold which word starts, words and genres, for skipping the events a query cannot match (built on first search, see searchCandidates). */
  readonly postings: Postings;
}

/**
 * The events holding each key, as ascending list positions (`SearchIndex.entries`): what
 * searchCandidates reads instead of testing every event.
 */
interface Postings {
  /** The 1, 2 and 3 characters from each word start of the folded text (never past the end of a field), by startKey. */
  byStart: ReadonlyMap<number | string, readonly number[]>;
  /** Each search word (SearchEntry.words). */
  byWord: ReadonlyMap<string, readonly number[]>;
  /** The search words in code-unit order: the words starting with a text are one run of them ("Did you mean" leaves alone a word that starts one). */
  sortedWords: readonly string[];
  /** Each genre key of the events (the genre match reads the list's events, as the matcher does). */
  byGenre: ReadonlyMap<string, readonly number[]>;
  /** One mark per event, reused by every query of the list (a fresh array per query costs more than the rest of a rare query). */
  marks: Int32Array;
}

function addSuggestions(words: Map<string, SuggestionWord>, text: string, seen: Set<string>): void {
  const folded = searchWords(text);
  const written = searchWordsAsWritten(text) ?? folded;
  folded.forEach((word, i) => {
    if (word.length < 3 || DIGIT.test(word)) return;
    const found = words.get(word);
    if (!found) words.set(word, { written: written[i]!, weight: 1 });
    else if (!seen.has(word)) found.weight++;
    seen.add(word);
  });
}

function buildIndex(events: readonly LiveEvent[], language: Language): SearchIndex {
  const byWord = new Map<string, number[]>();
  const pairs = new Set<string>();
  const listEntries: SearchEntry[] = [];
  for (let i = 0; i < events.length; i++) {
    const entry = searchEntry(events[i]!, language);
    listEntries.push(entry);
    for (const word of entry.words) addPosition(byWord, word, i);
    for (const pair of entry.pairs) pairs.add(pair);
  }
  let suggestions: Map<string, SuggestionWord> | undefined;
  let postings: Postings | undefined;
  return {
    entries: listEntries,
    wordsByInitial: byInitial(byWord.keys()),
    pairsByInitial: byInitial(pairs),
    get suggestions() {
      return (suggestions ??= buildSuggestions(events));
    },
    near: new Map(),
    get postings() {
      return (postings ??= buildPostings(events, listEntries, byWord));
    },
  };
}

// Positions are added in ascending order, so an event already holding the key is the list's last.
function addPosition<K>(lists: Map<K, number[]>, key: K, i: number): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [i]);
  else if (list[list.length - 1] !== i) list.push(i);
}

/**
 * The key of the `length` characters of `text` from `at` in Postings.byStart: a small integer
 * for ASCII (most folded text; a Map finds integers faster than strings), else the text itself.
 */
function startKey(text: string, at: number, length: number): number | string {
  let key = 0;
  for (let k = at; k < at + length; k++) {
    const code = text.charCodeAt(k);
    if (code >= 128) return text.slice(at, at + length);
    key = (key << 8) | (code + 1);
  }
  return key;
}

function buildPostings(events: readonly LiveEvent[], listEntries: readonly SearchEntry[], byWord: ReadonlyMap<string, readonly number[]>): Postings {
  const byStart = new Map<number | string, number[]>();
  const byGenre = new Map<string, number[]>();
  for (let i = 0; i < listEntries.length; i++) {
    const { compact, starts } = listEntries[i]!;
    for (let at = 0; at < compact.length; at++) {
      if (starts[at] !== 1) continue;
      for (let length = 1; length <= 3 && at + length <= compact.length && compact[at + length - 1] !== "\n"; length++) addPosition(byStart, startKey(compact, at, length), i);
    }
    for (const genre of events[i]!.genres) addPosition(byGenre, genre, i);
  }
  return { byStart, byWord, sortedWords: [...byWord.keys()].sort(), byGenre, marks: new Int32Array(listEntries.length) };
}

function buildSuggestions(events: readonly LiveEvent[]): Map<string, SuggestionWord> {
  const suggestions = new Map<string, SuggestionWord>();
  for (const event of events) {
    const seen = new Set<string>();
    addSuggestions(suggestions, event.eventName, seen);
    if (event.location) addSuggestions(suggestions, event.location, seen);
    for (const genre of event.genres) if (genre !== "other") addSuggestions(suggestions, genreLabel(genre), seen);
    if (typeof event.arrondissement === "number") addSuggestions(suggestions, arrondissementName(event.arrondissement), seen);
  }
  return suggestions;
}

function byInitial(words: Iterable<string>): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const word of words) {
    const list = lists.get(word[0]!);
    if (list) list.push(word);
    else lists.set(word[0]!, [word]);
  }
  return lists;
}

/**
 * The words of a list a typo of `term` is looked for in: those starting with its first letter, or
 * with its second (the first two swapped, "abtignolles"). A slip on the very first letter is left
 * to "Did you mean"; this keeps a query to a fraction of the vocabulary.
 */
function typoCandidates(lists: ReadonlyMap<string, readonly string[]>, term: string): readonly string[] {
  const first = lists.get(term[0]!) ?? [];
  if (term[1] === undefined || term[1] === term[0]) return first;
  return [...first, ...(lists.get(term[1]) ?? [])];
}

const indexesOf = memoisedPerObject((_events: readonly LiveEvent[]): Partial<Record<Language, SearchIndex>> => ({}));

/**
 * The search index of a list in the current language, built once per list object and language
 * (the live list is rebuilt only when the store changes).
 */
export function searchIndexOf(events: readonly LiveEvent[], language: Language = currentLanguage()): SearchIndex {
  const indexes = indexesOf(events);
  return (indexes[language] ??= buildIndex(events, language));
}

// ---------------------------------------------------------------------------------------------
// Queries

/** How an event matched: 0 exact, 1 folded (spelling, synonyms, chip words), 2 by typo; ranked in that order. */
export type MatchTier = 0 | 1 | 2;

/** One part of the query: a word, or a known phrase of several words ("ce soir", "plein air"). */
interface Term {
  /** Compact folded form. */
  text: string;
  genres: readonly string[];
  keywords: readonly SearchKeyword[];
  /** Edits a typo may make (0: none). */
  allowance: number;
  /** Genres and keywords within typo distance of the term (a misspelt "techno" or "gratuit"). */
  typoGenres: readonly string[];
  typoKeywords: readonly SearchKeyword[];
}

/** A query prepared once, matched against many events. */
export interface PreparedSearch {
  /** The query lower-cased as typed: the exact match. */
  exact: string;
  /** Every word of the query joined: the folded match of the whole query ("hip hop" finds "Hiphop Night"). */
  whole: string;
  terms: readonly Term[];
}

const NO_MEANING: PhraseMeaning = { genres: [], keywords: [] };

/**
 * The genres and chip words of the known phrases within a word's typo allowance: a pass over every
 * phrase, kept per word since distinct queries share most of their words ("venue m12", "venue m13").
 */
const typoMeaning = memoised(1000, (text: string): PhraseMeaning => {
  const allowance = typoAllowance(text.length);
  const typo: PhraseMeaning = { genres: [], keywords: [] };
  for (const [phrase, found] of PHRASES) {
    if (withinEdits(text, phrase, allowance)) {
      typo.genres.push(...found.genres);
      typo.keywords.push(...found.keywords);
    }
  }
  return typo;
});

/** Splits a query into terms, the longest known phrases first; null when nothing searchable is left. */
export function prepareSearch(query: string): PreparedSearch | null {
  const words = searchWords(query);
  if (words.length === 0) return null;
  const terms: Term[] = [];
  for (let i = 0; i < words.length; ) {
    // The longest phrase starting at word i: its words joined one more at a time.
    let taken = 1;
    let meaning: PhraseMeaning | undefined;
    let text = words[i]!;
    let joined = "";
    for (let n = 1; n <= Math.min(LONGEST_PHRASE_WORDS, words.length - i); n++) {
      joined += words[i + n - 1]!;
      const found = PHRASES.get(joined);
      if (found) {
        meaning = found;
        taken = n;
        text = joined;
      }
    }
    const allowance = taken === 1 && !DIGIT.test(text) ? typoAllowance(text.length) : 0;
    const typo = !meaning && allowance > 0 ? typoMeaning(text) : NO_MEANING;
    terms.push({ text, genres: meaning?.genres ?? [], keywords: meaning?.keywords ?? [], allowance, typoGenres: typo.genres, typoKeywords: typo.keywords });
    i += taken;
  }
  return { exact: query.toLowerCase().replace(/\s+/g, " ").trim(), whole: words.join(""), terms };
}

/** Query words whose near words a list's index keeps (dropped all at once when full, as memo.ts does). */
const NEAR_WORDS_KEPT = 1000;

/**
 * The words and neighbouring pairs of a list within a term's typo allowance, kept per list index:
 * distinct searches share most of their words ("venue m12", "venue m13"), and this pass over the
 * vocabulary is most of what preparing a typo-tolerant word costs. Words the folded match already
 * finds (the term starts them) are left out, and a near word that starts with a shorter near word
 * adds nothing (an event with the pair "batignolles8" also has the word "batignolles"): each
 * event is then probed for a few words.
 */
function nearWordsOf(index: SearchIndex, term: Term): readonly string[] {
  const key = `${term.allowance}:${term.text}`;
  let kept = index.near.get(key);
  if (kept === undefined) {
    const near = new Set<string>();
    for (const word of typoCandidates(index.wordsByInitial, term.text)) if (!word.startsWith(term.text) && withinTypos(term.text, word, term.allowance)) near.add(word);
    for (const pair of typoCandidates(index.pairsByInitial, term.text)) if (!pair.startsWith(term.text) && withinEdits(term.text, pair, term.allowance)) near.add(pair);
    const sorted = [...near].sort((a, b) => a.length - b.length);
    const shortest: string[] = [];
    for (const word of sorted) if (!shortest.some((shorter) => word.startsWith(shorter))) shortest.push(word);
    if (index.near.size >= NEAR_WORDS_KEPT) index.near.clear();
    index.near.set(key, (kept = shortest));
  }
  return kept;
}

/** Tests events against one prepared query; the typo words are looked up once in the list's vocabulary. `entry` is the event's search text when the caller holds it (SearchIndex.entries). */
export type SearchMatcher = (event: LiveEvent, entry?: SearchEntry) => MatchTier | null;

/**
 * The matcher of a query over a list (or, without a list, over each event's own words): the best
 * tier at which every term matches, or null. Terms combine with AND; a term matches by its text at
 * the start of a word, by a genre it names, by the chip or setting it names, or by typo.
 */
export function createSearchMatcher(search: PreparedSearch, now: Date, index?: SearchIndex): SearchMatcher {
  const nearLists = search.terms.map((term) => (term.allowance === 0 || !index ? null : nearWordsOf(index, term)));
  const whole = search.terms.length > 1 ? search.whole : null;

  // Plain loops, no callbacks: this runs once per event and term.
  const hasGenre = (event: LiveEvent, genres: readonly string[]): boolean => {
    for (let g = 0; g < genres.length; g++) if (event.genres.includes(genres[g]!)) return true;
    return false;
  };
  const hasKeyword = (event: LiveEvent, keywords: readonly SearchKeyword[]): boolean => {
    for (let k = 0; k < keywords.length; k++) if (keywordHolds(keywords[k]!, event, now)) return true;
    return false;
  };
  const byTypo = (i: number, term: Term, event: LiveEvent, entry: SearchEntry): boolean => {
    if (term.typoGenres.length > 0 && hasGenre(event, term.typoGenres)) return true;
    if (term.typoKeywords.length > 0 && hasKeyword(event, term.typoKeywords)) return true;
    const near = nearLists[i];
    if (near) {
      for (let w = 0; w < near.length; w++) if (entry.words.has(near[w]!) || entry.pairs.has(near[w]!)) return true;
      return false;
    }
    if (term.allowance === 0) return false;
    for (const word of entry.words) if (withinTypos(term.text, word, term.allowance)) return true;
    for (const pair of entry.pairs) if (withinEdits(term.text, pair, term.allowance)) return true;
    return false;
  };
  // The exact test runs only on events the folded one found: text found as written is also found folded.
  const exactOr = (entry: SearchEntry, tier: MatchTier): MatchTier => (exactAtWordStart(entry.lower, search.exact) ? 0 : tier);
  const terms = search.terms;

  return (event, entry = searchEntry(event)) => {
    if (whole !== null && foldedAtWordStart(entry, whole)) return exactOr(entry, 1);
    let tier: MatchTier = 1;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      if (foldedAtWordStart(entry, term.text)) continue;
      if (term.genres.length > 0 && hasGenre(event, term.genres)) continue;
      if (term.keywords.length > 0 && hasKeyword(event, term.keywords)) continue;
      if (byTypo(i, term, event, entry)) {
        tier = 2;
        continue;
      }
      return null;
    }
    return exactOr(entry, tier);
  };
}

// ---------------------------------------------------------------------------------------------
// The events a query may match

/** The values present in both ascending lists, ascending. */
function intersectAscending(a: readonly number[], b: readonly number[]): number[] {
  if (a.length > b.length) [a, b] = [b, a];
  const both: number[] = [];
  if (a.length * 8 < b.length) {
    // A few against many: each of the few is looked for by halving, from where the last one was.
    let low = 0;
    for (let i = 0; i < a.length && low < b.length; i++) {
      const value = a[i]!;
      let high = b.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (b[mid]! < value) low = mid + 1;
        else high = mid;
      }
      if (b[low] === value) both.push(value);
    }
    return both;
  }
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      both.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both;
}

/**
 * Adds to `parts` lists whose union holds every event where `needle` is found folded
 * (foldedAtWordStart). Up to 3 characters: the events holding it at a word start. Longer, the word
 * where the match starts either starts with the whole needle (a run of the sorted words), or is the
 * needle's first d characters, the rest of the needle then starting the next word of the same field
 * (a needle never holds the "\n" between fields).
 */
function addFoldedParts(postings: Postings, needle: string, parts: (readonly number[])[]): void {
  if (needle.length <= 3) {
    const holders = postings.byStart.get(startKey(needle, 0, needle.length));
    if (holders !== undefined) parts.push(holders);
    return;
  }
  const words = postings.sortedWords;
  for (let w = firstAtOrAfter(words, needle); w < words.length && words[w]!.startsWith(needle); w++) parts.push(postings.byWord.get(words[w]!)!);
  // The words that are the needle's first d characters: of one or two, looked up; of three or
  // more, found among the sorted words that share its first three (a handful), instead of a
  // lookup of every beginning of the needle, which cost a search miss more than all the rest here.
  for (let d = 1; d < 3; d++) addSplit(postings, needle, d, postings.byWord.get(needle.slice(0, d)), parts);
  const head = needle.slice(0, 3);
  for (let w = firstAtOrAfter(words, head); w < words.length && words[w]!.startsWith(head); w++) {
    const word = words[w]!;
    if (word.length < needle.length && needle.startsWith(word)) addSplit(postings, needle, word.length, postings.byWord.get(word), parts);
  }
}

/** The position of the first of the sorted `words` that is not before `text`. */
function firstAtOrAfter(words: readonly string[], text: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (words[mid]! < text) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether a text starts one of the sorted `words`. */
function startsAWord(words: readonly string[], text: string): boolean {
  const at = firstAtOrAfter(words, text);
  return at < words.length && words[at]!.startsWith(text);
}

/** Adds the events holding the word `first` (the needle's first d characters) followed by a word starting the needle's rest. */
function addSplit(postings: Postings, needle: string, d: number, first: readonly number[] | undefined, parts: (readonly number[])[]): void {
  if (first === undefined) return;
  const next = postings.byStart.get(startKey(needle, d, Math.min(3, needle.length - d)));
  if (next !== undefined) parts.push(intersectAscending(first, next));
}

/**
 * Lists whose union holds every event a term can match (createSearchMatcher): by its text, its
 * genres and misspelt genres, and its near words and pairs (a word or a pair of neighbouring words
 * of an event is also found folded there); null when the term names a chip or setting word, whose
 * test reads the clock and the event (every event may then match it).
 */
function termParts(index: SearchIndex, term: Term): (readonly number[])[] | null {
  if (term.keywords.length > 0 || term.typoKeywords.length > 0) return null;
  const postings = index.postings;
  const parts: (readonly number[])[] = [];
  addFoldedParts(postings, term.text, parts);
  for (const genre of [...term.genres, ...term.typoGenres]) {
    const holders = postings.byGenre.get(genre);
    if (holders !== undefined) parts.push(holders);
  }
  if (term.allowance > 0) for (const word of nearWordsOf(index, term)) addFoldedParts(postings, word, parts);
  return parts;
}

const sizeOf = (parts: readonly (readonly number[])[]): number => parts.reduce((sum, part) => sum + part.length, 0);

/**
 * The positions of `among` (ascending list positions, those passing the filter groups) whose
 * events a prepared search may match: those found by the whole query joined, and those every term
 * may match (terms naming a chip word aside, as any event may match them). Only these need the
 * matcher, which stays the judge of each: the postings only leave out events it would reject.
 */
export function searchCandidates(index: SearchIndex, search: PreparedSearch, among: readonly number[]): readonly number[] {
  const terms: (readonly number[])[][] = [];
  for (const term of search.terms) {
    const parts = termParts(index, term);
    if (parts !== null) terms.push(parts);
  }
  if (terms.length === 0) return among;
  // The rarest term first: each next term only keeps events the ones before kept.
  const sizes = new Map(terms.map((parts) => [parts, sizeOf(parts)]));
  terms.sort((a, b) => sizes.get(a)! - sizes.get(b)!);
  // marks[i]: -1 when the whole query is found in event i, else how many terms (in that order) may match it.
  const marks = index.postings.marks.fill(0);
  if (search.terms.length > 1) {
    const whole: (readonly number[])[] = [];
    addFoldedParts(index.postings, search.whole, whole);
    for (const part of whole) for (let k = 0; k < part.length; k++) marks[part[k]!] = -1;
  }
  for (let t = 0; t < terms.length; t++) {
    let kept = 0;
    for (const part of terms[t]!) {
      for (let k = 0; k < part.length; k++) {
        const i = part[k]!;
        if (marks[i] === t) {
          marks[i] = t + 1;
          kept++;
        }
      }
    }
    if (kept === 0) break;
  }
  const all = terms.length;
  const found: number[] = [];
  for (let k = 0; k < among.length; k++) {
    const mark = marks[among[k]!];
    if (mark === all || mark === -1) found.push(among[k]!);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Did you mean

/**
 * A respelling of the query from the list's titles, venues, genres and arrondissement names, or
 * null: each word of 3+ letters that starts no word of the list is replaced by the closest such
 * word within the suggestion allowance (fewest edits, then the word in most events, then
 * alphabetical), written as in the list ("Batignolles"). The caller offers it only when it finds
 * more events.
 */
export function suggestQuery(query: string, index: SearchIndex): string | null {
  const tokens = query.split(/\s+/).filter((token) => token !== "");
  let changed = false;
  const out = tokens.map((token) => {
    // A word with a digit is never respelt (its compact form keeps the digit).
    if (DIGIT.test(token)) return token;
    const compact = compactSearchText(token);
    if (compact.length < 3 || DIGIT.test(compact) || PHRASES.has(compact)) return token;
    if (startsAWord(index.postings.sortedWords, compact)) return token;
    const allowance = suggestionAllowance(compact.length);
    let best: { word: string; steps: number; weight: number } | null = null;
    for (const [word, found] of index.suggestions) {
      if (Math.abs(word.length - compact.length) > allowance) continue;
      const steps = editDistance(compact, word);
      if (steps > allowance) continue;
      if (!best || steps < best.steps || (steps === best.steps && (found.weight > best.weight || (found.weight === best.weight && word < best.word)))) {
        best = { word, steps, weight: found.weight };
      }
    }
    if (!best) return token;
    changed = true;
    return index.suggestions.get(best.word)!.written;
  });
  return changed ? out.join(" ") : null;
}
