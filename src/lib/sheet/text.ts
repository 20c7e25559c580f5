// Text folding shared by every sheet rule: accent-free, lower-case, single-spaced text for keys and matching.

const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;
const WHITESPACE_RUN = /\s+/g;
// Whitespace that folding would change: at an edge, doubled, or other than a plain space.
const UNTIDY_WHITESPACE = /^\s|\s$|\s\s|[^\S ]/;
const HEADER_NOISE = /[^a-z0-9]+/g;

/** Removes accents (NFKD, combining marks dropped) without touching case or spacing. */
export function stripAccents(text: string): string {
  // Pure ASCII cannot carry combining marks, so the common case skips normalisation.
  if (!NON_ASCII.test(text)) return text;
  return text.normalize("NFKD").replace(COMBINING_MARKS, "");
}

/** Folded text (see docs/sheet.md, "Conventions used on this page"): NFKD, accents removed, lower-cased, trimmed, whitespace runs collapsed. */
export function fold(text: string | null | undefined): string {
  if (!text) return "";
  const lower = stripAccents(text).toLowerCase();
  return UNTIDY_WHITESPACE.test(lower) ? lower.replace(WHITESPACE_RUN, " ").trim() : lower;
}

/** Header normalisation: accents removed, lower-cased, every run outside a–z/0–9 one space, trimmed. */
export function normaliseHeader(header: string | null | undefined): string {
  if (!header) return "";
  return stripAccents(header).toLowerCase().replace(HEADER_NOISE, " ").trim();
}

/** Folded text with every run outside a–z/0–9 turned into one space, for whole-word matching. */
export function wordText(text: string | null | undefined): string {
  return normaliseHeader(text);
}

// Letters that NFKD leaves whole but a visitor types as two ("chœur" / "choeur").
const LIGATURES: ReadonlyArray<[RegExp, string]> = [
  [/œ/g, "oe"],
  [/æ/g, "ae"],
  [/ß/g, "ss"],
];
// Everything but letters, digits and "&" separates search words: spaces, hyphens, apostrophes, punctuation.
const SEARCH_SEPARATORS = /[^\p{L}\p{N}&]+/u;
const ASCII_SEARCH_SEPARATORS = /[^a-z0-9&]+/;
const ONE_SEARCH_WORD = /^[a-z0-9&]+$/;

/**
 * Search words (see docs/filters-and-search.md, "Search"): folded (accents removed, lower-case,
 * œ/æ/ß spelt out), then split at every run of characters other than letters, digits and "&", so
 * "Saint-Martin", "saint martin" and "saint'martin" give the same words. The one rule applied to
 * the query and to every searched field.
 */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  // Already one search word (most query words, typed in lower case): nothing to fold or split.
  if (ONE_SEARCH_WORD.test(text)) return [text];
  let folded = stripAccents(text).toLowerCase();
  if (NON_ASCII.test(folded)) {
    for (const [pattern, replacement] of LIGATURES) folded = folded.replace(pattern, replacement);
    return folded.split(SEARCH_SEPARATORS).filter((word) => word !== "");
  }
  // Plain ASCII (most text once accents are gone): the same split without Unicode classes, several times faster.
  return folded.split(ASCII_SEARCH_SEPARATORS).filter((word) => word !== "");
}

/** The search words of a text written as they appear in it (accents and case kept), or null when they do not line up with searchWords. */
export function searchWordsAsWritten(text: string): string[] | null {
  const written = text.split(/[^\p{L}\p{M}\p{N}&]+/u).filter((word) => word !== "");
  return written.length === searchWords(text).length ? written : null;
}

/** The compact search form: the search words joined without separators ("hip hop", "Hip-Hop" and "hiphop" all give "hiphop"). */
export function compactSearchText(text: string | null | undefined): string {
  if (text && ONE_SEARCH_WORD.test(text)) return text;
  return searchWords(text).join("");
}
