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

/** Folded text (domain "Shared conventions"): NFKD, accents removed, lower-cased, trimmed, whitespace runs collapsed. */
export function fold(text: string | null | undefined): string {
  if (!text) return "";
  const lower = stripAccents(text).toLowerCase();
  return UNTIDY_WHITESPACE.test(lower) ? lower.replace(WHITESPACE_RUN, " ").trim() : lower;
}

/** Header normalisation (§1.2): accents removed, lower-cased, every run outside a–z/0–9 one space, trimmed. */
export function normaliseHeader(header: string | null | undefined): string {
  if (!header) return "";
  return stripAccents(header).toLowerCase().replace(HEADER_NOISE, " ").trim();
}

/** Folded text with every run outside a–z/0–9 turned into one space, for whole-word matching. */
export function wordText(text: string | null | undefined): string {
  return normaliseHeader(text);
}
