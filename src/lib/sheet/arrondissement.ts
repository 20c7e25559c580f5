// Arrondissements (see docs/sheet.md, "Arrondissement"): reading the Area cell, estimating from the
// Location, labels and centre points.

import { fold, wordText } from "./text.ts";
import type { Arrondissement, Coordinates } from "./types.ts";
import { formatOrdinal, t } from "../i18n/index.ts";

/** Where a resolved arrondissement came from; `unexpected` marks an Area value the schema report warns about. */
export interface ArrondissementResolution {
  value: Arrondissement;
  source: "area" | "location" | "none";
  /** True when the Area cell was neither 1–20 in a recognised form, "-" nor blank. */
  unexpected: boolean;
}

const POSTAL_CODE = /(?<!\d)75(?:0(0[1-9]|1\d|20)|(116))(?!\d)/;
const ONE_OR_TWO_DIGITS = /(?<!\d)\d{1,2}(?!\d)/;
const NUMBERED_ARR = /(?<!\d)(\d{1,2}) ?(?:er|eme|e) ?(?:arr|ardt)/;
const TBA_WORD = /(?<![a-z0-9])tb[ac](?![a-z0-9])/;

// French and English ordinal words for 1–20 (the third rule for an Area cell), as written; matching
// folds them.
const ORDINAL_WORDS: Readonly<Record<number, readonly string[]>> = {
  1: ["premier", "première", "first"],
  2: ["deuxième", "second", "seconde"],
  3: ["troisième", "third"],
  4: ["quatrième", "fourth"],
  5: ["cinquième", "fifth"],
  6: ["sixième", "sixth"],
  7: ["septième", "seventh"],
  8: ["huitième", "eighth"],
  9: ["neuvième", "ninth"],
  10: ["dixième", "tenth"],
  11: ["onzième", "eleventh"],
  12: ["douzième", "twelfth"],
  13: ["treizième", "thirteenth"],
  14: ["quatorzième", "fourteenth"],
  15: ["quinzième", "fifteenth"],
  16: ["seizième", "sixteenth"],
  17: ["dix-septième", "seventeenth"],
  18: ["dix-huitième", "eighteenth"],
  19: ["dix-neuvième", "nineteenth"],
  20: ["vingtième", "twentieth"],
};

/** Landmarks per arrondissement, used to estimate it from a Location text, as written; matching folds them. */
export const ARRONDISSEMENT_LANDMARKS: Readonly<Record<number, readonly string[]>> = {
  1: ["Louvre", "Châtelet", "Les Halles", "Palais-Royal", "Tuileries"],
  2: ["Sentier", "Bourse"],
  3: ["Marais", "Temple", "Arts et Métiers"],
  4: ["Hôtel de Ville", "Beaubourg", "Île Saint-Louis"],
  5: ["Quartier Latin", "Latin Quarter", "Panthéon", "Mouffetard"],
  6: ["Saint-Germain", "Odéon", "Luxembourg"],
  7: ["Eiffel", "Invalides", "Orsay"],
  8: ["Champs-Élysées", "Concorde", "Madeleine"],
  9: ["Opéra", "Saint-Georges"],
  10: ["Canal Saint-Martin", "Gare du Nord", "Gare de l'Est"],
  11: ["Oberkampf", "Parmentier", "Charonne", "Popincourt"],
  12: ["Bastille", "Bercy", "Gare de Lyon", "Daumesnil"],
  13: ["Butte-aux-Cailles", "Place d'Italie", "Bibliothèque"],
  14: ["Montparnasse", "Denfert", "Alésia"],
  15: ["Beaugrenelle", "Convention", "Vaugirard"],
  16: ["Trocadéro", "Passy", "Auteuil"],
  17: ["Batignolles", "Ternes"],
  18: ["Montmartre", "Pigalle", "Abbesses", "Barbès"],
  19: ["Buttes-Chaumont", "La Villette", "Stalingrad"],
  20: ["Belleville", "Ménilmontant", "Père-Lachaise", "Gambetta"],
};

// Whole-word phrases (space-padded, word-normalised), longest first, built once.
function longestFirst(table: Readonly<Record<number, readonly string[]>>): readonly (readonly [number, string])[] {
  return Object.entries(table)
    .flatMap(([n, phrases]) => phrases.map((phrase) => [Number(n), ` ${wordText(phrase)} `] as const))
    .sort((a, b) => b[1].length - a[1].length);
}
const ORDINALS_LONGEST_FIRST = longestFirst(ORDINAL_WORDS);
const LANDMARKS_LONGEST_FIRST = longestFirst(ARRONDISSEMENT_LANDMARKS);

function isArrondissementNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 20;
}

function postalCodeIn(folded: string): number | null {
  const match = POSTAL_CODE.exec(folded);
  if (!match) return null;
  return match[2] ? 16 : Number(match[1]);
}

function phraseIn(words: string, phrases: readonly (readonly [number, string])[]): number | null {
  const padded = ` ${words} `;
  for (const [n, phrase] of phrases) if (padded.includes(phrase)) return n;
  return null;
}

/** Reads an Area cell alone (the first three rules): postal code, first 1–2 digit number, ordinal word; null when none. */
export function readAreaCell(cell: string | null | undefined): number | null {
  const folded = fold(cell);
  if (folded === "") return null;
  const postal = postalCodeIn(folded);
  if (postal !== null) return postal;
  const digits = ONE_OR_TWO_DIGITS.exec(folded);
  if (digits && isArrondissementNumber(Number(digits[0]))) return Number(digits[0]);
  return phraseIn(wordText(folded), ORDINALS_LONGEST_FIRST);
}

/** Estimates the arrondissement from a Location text (the fourth rule): TBA/TBC, 750NN, "11e arr…", landmarks. */
export function estimateArrondissementFromLocation(location: string | null | undefined): Arrondissement {
  const folded = fold(location);
  if (folded === "" || TBA_WORD.test(folded)) return "unknown";
  const postal = postalCodeIn(folded);
  if (postal !== null) return postal;
  const numbered = NUMBERED_ARR.exec(folded);
  if (numbered && isArrondissementNumber(Number(numbered[1]))) return Number(numbered[1]);
  return phraseIn(wordText(folded), LANDMARKS_LONGEST_FIRST) ?? "unknown";
}

/** Resolves an event's arrondissement from its Area cell, falling back to the Location text. */
export function resolveArrondissement(
  area: string | null | undefined,
  location: string | null | undefined,
): ArrondissementResolution {
  const fromArea = readAreaCell(area);
  if (fromArea !== null) return { value: fromArea, source: "area", unexpected: false };
  const trimmed = (area ?? "").trim();
  const unexpected = trimmed !== "" && trimmed !== "-";
  const estimate = estimateArrondissementFromLocation(location);
  return { value: estimate, source: estimate === "unknown" ? "none" : "location", unexpected };
}

/** Short label: "1er", "2e" … "20e", "TBC" for unknown. */
export function arrondissementShortLabel(value: Arrondissement): string {
  if (value === "unknown" || !isArrondissementNumber(value)) return t("common.tbc");
  return value === 1 ? "1er" : `${value}e`;
}

/** Long label: "1er Arrondissement" … "20e Arrondissement", "Location TBC" for unknown. */
export function arrondissementLongLabel(value: Arrondissement): string {
  if (value === "unknown" || !isArrondissementNumber(value)) return t("arrondissement.unknown");
  return t("arrondissement.long", { ordinal: formatOrdinal(value) });
}

/** Sort order: 1–20 ascending, then unknown. */
export function compareArrondissements(a: Arrondissement, b: Arrondissement): number {
  const rank = (v: Arrondissement) => (v === "unknown" ? 21 : v);
  return rank(a) - rank(b);
}

/** An arrondissement's centre point and its map label. */
export interface ArrondissementCentre extends Coordinates {
  label: string;
}

/** The 20 arrondissement centres used as fallback coordinates and map labels. */
export const ARRONDISSEMENT_CENTRES: Readonly<Record<number, ArrondissementCentre>> = {
  1: { lat: 48.8606, lng: 2.3376, label: "1er - Louvre" },
  2: { lat: 48.8677, lng: 2.3414, label: "2e - Bourse" },
  3: { lat: 48.8644, lng: 2.3615, label: "3e - Temple" },
  4: { lat: 48.8551, lng: 2.3618, label: "4e - Hôtel-de-Ville" },
  5: { lat: 48.8462, lng: 2.3518, label: "5e - Panthéon" },
  6: { lat: 48.8496, lng: 2.3344, label: "6e - Luxembourg" },
  7: { lat: 48.8566, lng: 2.3165, label: "7e - Palais-Bourbon" },
  8: { lat: 48.8736, lng: 2.3111, label: "8e - Élysée" },
  9: { lat: 48.8785, lng: 2.3373, label: "9e - Opéra" },
  10: { lat: 48.876, lng: 2.359, label: "10e - Entrepôt" },
  11: { lat: 48.8594, lng: 2.3765, label: "11e - Popincourt" },
  12: { lat: 48.8448, lng: 2.389, label: "12e - Reuilly" },
  13: { lat: 48.8322, lng: 2.3647, label: "13e - Gobelins" },
  14: { lat: 48.8339, lng: 2.3273, label: "14e - Observatoire" },
  15: { lat: 48.8422, lng: 2.2966, label: "15e - Vaugirard" },
  16: { lat: 48.8555, lng: 2.269, label: "16e - Passy" },
  17: { lat: 48.8848, lng: 2.312, label: "17e - Batignolles-Monceau" },
  18: { lat: 48.8927, lng: 2.3436, label: "18e - Butte-Montmartre" },
  19: { lat: 48.8799, lng: 2.3781, label: "19e - Buttes-Chaumont" },
  20: { lat: 48.8632, lng: 2.3969, label: "20e - Ménilmontant" },
};

/** Map point for `unknown` (display only, never stored as a geocode). */
export const UNKNOWN_ARRONDISSEMENT_CENTRE: ArrondissementCentre = { lat: 48.84, lng: 2.42, label: "Unknown - Location TBC" };

/** Paris centre, for any value that is neither 1–20 nor unknown. */
export const PARIS_CENTRE: Coordinates = { lat: 48.8566, lng: 2.3522 };

/** The centre point for an arrondissement value: its centre, the unknown point, or the Paris centre. */
export function arrondissementCentre(value: unknown): Coordinates & { label?: string } {
  if (value === "unknown") return UNKNOWN_ARRONDISSEMENT_CENTRE;
  if (typeof value === "number" && isArrondissementNumber(value)) return ARRONDISSEMENT_CENTRES[value];
  return PARIS_CENTRE;
}
