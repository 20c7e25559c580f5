// Genres (see docs/sheet.md, "Genres"): the 38 genre keys with labels and chip colours, their
// aliases and the Categories cell matcher.

import { stripAccents } from "./text.ts";

/** One genre: its key (used in URLs and filters), display label and fixed chip colour. */
export interface Genre {
  key: string;
  label: string;
  colour: string;
}

/** The 38 genres in list order (`other` last). */
export const GENRES: readonly Genre[] = [
  { key: "amapiano", label: "Amapiano", colour: "#7c3aed" },
  { key: "afrobeats", label: "Afrobeats", colour: "#ea580c" },
  { key: "soca", label: "Soca", colour: "#db2777" },
  { key: "pop", label: "Pop", colour: "#ec4899" },
  { key: "bashment", label: "Bashment", colour: "#16a34a" },
  { key: "hip hop", label: "Hip Hop", colour: "#1f2937" },
  { key: "r&b", label: "R&B", colour: "#9333ea" },
  { key: "shatta", label: "Shatta", colour: "#ca8a04" },
  { key: "dancehall", label: "Dancehall", colour: "#15803d" },
  { key: "reggaeton", label: "Reggaeton", colour: "#dc2626" },
  { key: "baile funk", label: "Baile Funk", colour: "#65a30d" },
  { key: "house", label: "House", colour: "#2563eb" },
  { key: "disco", label: "Disco", colour: "#c026d3" },
  { key: "afro house", label: "Afro House", colour: "#b45309" },
  { key: "electro", label: "Electro", colour: "#0891b2" },
  { key: "funk", label: "Funk", colour: "#d97706" },
  { key: "rap", label: "Rap", colour: "#374151" },
  { key: "trap", label: "Trap", colour: "#4b5563" },
  { key: "uk drill", label: "UK Drill", colour: "#1e3a8a" },
  { key: "uk garage", label: "UK Garage", colour: "#0d9488" },
  { key: "bouyon", label: "Bouyon", colour: "#e11d48" },
  { key: "zouk", label: "Zouk", colour: "#f43f5e" },
  { key: "coupé-décalé", label: "Coupé-Décalé", colour: "#f59e0b" },
  { key: "urban fr", label: "Urban FR", colour: "#4338ca" },
  { key: "kompa", label: "Kompa", colour: "#0e7490" },
  { key: "afro", label: "Afro", colour: "#c2410c" },
  { key: "gqom", label: "Gqom", colour: "#525252" },
  { key: "alternative", label: "Alternative", colour: "#6d28d9" },
  { key: "dance", label: "Dance", colour: "#0284c7" },
  // The festival beyond the club: bands, choirs, orchestras and singers.
  { key: "jazz", label: "Jazz", colour: "#a16207" },
  { key: "rock", label: "Rock", colour: "#b91c1c" },
  { key: "classique", label: "Classique", colour: "#1d4ed8" },
  { key: "chanson", label: "Chanson", colour: "#be185d" },
  { key: "musiques du monde", label: "Musiques du monde", colour: "#047857" },
  { key: "reggae", label: "Reggae", colour: "#4d7c0f" },
  { key: "metal", label: "Metal", colour: "#18181b" },
  { key: "variété", label: "Pop / Variété", colour: "#f472b6" },
  { key: "other", label: "Other", colour: "#6b7280" },
];

/** The genre keys in list order. */
export const GENRE_KEYS: readonly string[] = GENRES.map((genre) => genre.key);

/** Extra spellings per genre key; every key is also its own alias. */
export const GENRE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  electro: ["electronic", "edm", "trance", "dubstep"],
  house: ["techno"],
  "hip hop": ["hiphop"],
  pop: ["mainstream", "commercial"],
  "r&b": ["rnb", "r and b", "r & b", "r'n'b", "soul"],
  alternative: ["alt", "indie", "alternative rock"],
  dance: ["dance music"],
  "afro house": ["afrohouse"],
  afrobeats: ["afrobeat"],
  "uk garage": ["ukg", "garage"],
  "uk drill": ["drill"],
  kompa: ["konpa"],
  "coupé-décalé": ["coupe decale"],
  dancehall: ["dance hall"],
  jazz: ["blues", "swing", "bebop", "be bop", "jazz manouche", "big band", "fanfare", "brass band"],
  rock: ["punk", "rock n roll", "rock'n'roll", "hard rock", "grunge", "garage rock", "pop rock"],
  classique: ["classical", "classical music", "musique classique", "orchestra", "orchestre", "opera", "baroque", "symphonic", "symphonique", "choir", "chorale", "choeur", "chamber music", "musique de chambre"],
  chanson: ["chanson francaise", "french chanson", "cabaret"],
  "musiques du monde": ["musique du monde", "world", "world music", "folk", "traditional music", "musique traditionnelle", "flamenco", "fado", "salsa", "cumbia", "samba", "bossa nova", "tango", "klezmer", "gnawa", "celtic", "celtique"],
  reggae: ["roots reggae", "dub", "ska", "rocksteady"],
  metal: ["heavy metal", "metalcore", "death metal", "black metal", "thrash"],
  "variété": ["variete francaise", "variété française", "french pop", "pop francaise", "pop française"],
};

const GENRE_BY_KEY: ReadonlyMap<string, Genre> = new Map(GENRES.map((genre) => [genre.key, genre]));

const HYPHENS = /-/g;
const SPACES = /\s+/g;
// Every r&b spelling, rewritten before splitting so the "&"/"and" inside it never splits the cell.
const R_AND_B = /(?<![a-z0-9])(?:r\s*&\s*b|r\s+and\s+b|r['’]n['’]b|rnb)(?![a-z0-9])/g;
const PART_SEPARATORS = /[,/+;|\n\r]|\s&\s|\sand\s/;

/** Matching form of a part or alias: accent-free, lower-case, hyphens as spaces, single-spaced. */
function matchForm(text: string): string {
  return stripAccents(text).toLowerCase().replace(HYPHENS, " ").replace(SPACES, " ").trim();
}

/** An alias table entry: matching form → key, with the key's list position for ties. */
interface AliasEntry {
  alias: string;
  key: string;
  order: number;
}

/** Builds exact and longest-first alias tables once for a list of keys with aliases. */
export function buildAliasMatcher(
  keys: readonly string[],
  aliases: Readonly<Record<string, readonly string[]>>,
): (part: string) => string | null {
  const entries: AliasEntry[] = keys.flatMap((key, order) =>
    [key, ...(aliases[key] ?? [])].map((alias) => ({ alias: matchForm(alias), key, order })),
  );
  const exact = new Map<string, string>();
  for (const entry of entries) if (!exact.has(entry.alias)) exact.set(entry.alias, entry.key);
  const longestFirst = [...entries].sort((a, b) => b.alias.length - a.alias.length || a.order - b.order);
  return (part: string) => {
    const form = matchForm(part);
    if (form === "") return null;
    const hit = exact.get(form);
    if (hit !== undefined) return hit;
    for (const entry of longestFirst) if (form.includes(entry.alias)) return entry.key;
    return null;
  };
}

const matchGenre = buildAliasMatcher(
  GENRE_KEYS.filter((key) => key !== "other"),
  GENRE_ALIASES,
);

/** Genre keys of a Categories cell, de-duplicated in first-seen order; unmatched parts give `other`. */
export function parseGenres(cell: string | null | undefined): string[] {
  if (!cell) return [];
  const text = stripAccents(cell).toLowerCase().replace(R_AND_B, "r&b");
  const keys: string[] = [];
  for (const part of text.split(PART_SEPARATORS)) {
    if (part.trim() === "") continue;
    const key = matchGenre(part) ?? "other";
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** The genre for a key, or undefined. */
export function findGenre(key: string): Genre | undefined {
  return GENRE_BY_KEY.get(key);
}

/** Display label of a genre key (the key itself when unknown). */
export function genreLabel(key: string): string {
  return GENRE_BY_KEY.get(key)?.label ?? key;
}

/** Chip colour of a genre key (Other's colour when unknown). */
export function genreColour(key: string): string {
  return (GENRE_BY_KEY.get(key) ?? GENRE_BY_KEY.get("other")!).colour;
}
