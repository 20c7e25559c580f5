// Nationality (see docs/sheet.md, "Nationality"): Host Country and Audience Country cells to the
// supported codes UK, FR, CA, NL, plus display.

import { fold } from "./text.ts";
import type { NationalityCode } from "./types.ts";

/** Codes found in the cells (first-seen order) and the tokens that named an unsupported country. */
export interface NationalityReading {
  codes: NationalityCode[];
  unsupported: string[];
  /** True when the cell has words but none is a country, a code or a filler word ("Narnia"). */
  unrecognised: boolean;
}

const REGIONAL_INDICATOR_PAIR = /([\u{1F1E6}-\u{1F1FF}])([\u{1F1E6}-\u{1F1FF}])/gu;
const DOTS = /\./g;
const TOKEN_SEPARATORS = /[\s/&+,;|\-()]+/;

const MULTI_WORD: readonly (readonly [readonly string[], NationalityCode])[] = [
  [["united", "kingdom"], "UK"],
  [["great", "britain"], "UK"],
];

const CODE_BY_TOKEN: ReadonlyMap<string, NationalityCode> = new Map(
  (
    [
      ["UK", "uk gb britain british england scotland wales"],
      ["FR", "fr france french francais"],
      ["CA", "ca canada canadian"],
      ["NL", "nl netherlands holland dutch"],
    ] as const
  ).flatMap(([code, tokens]) => tokens.split(" ").map((token) => [token, code] as const)),
);

// Country names and demonyms the service does not support: named in a warning, never matched.
const OTHER_COUNTRY_WORDS: ReadonlySet<string> = new Set(
  (
    "usa america american germany german deutschland allemagne spain spanish espagne italy italian italie " +
    "belgium belgian belgique switzerland swiss suisse portugal portuguese ireland irish nigeria nigerian ghana " +
    "ghanaian jamaica jamaican trinidad barbados brazil brazilian bresil colombia colombian mexico mexican " +
    "cuba cuban haiti haitian martinique guadeloupe senegal senegalese cameroon cameroun congo ivoirian " +
    "ivoire mali algeria algerian algerie morocco moroccan maroc tunisia tunisian tunisie africa " +
    "african kenya kenyan japan japanese china chinese korea korean india indian australia australian sweden " +
    "swedish norway norwegian denmark danish poland polish greece greek turkey turkish"
  ).split(" "),
);
// 2–3 letter words that are ordinary language, not country codes.
const NOT_A_CODE: ReadonlySet<string> = new Set(["and", "et", "the", "of", "de", "du", "la", "le", "all", "mix", "tba", "tbc", "na", "or", "ou"]);

/** Reads one nationality cell: regional-indicator flags, dotted abbreviations, whole tokens. */
export function readNationalityCell(cell: string | null | undefined): NationalityReading {
  const codes: NationalityCode[] = [];
  const unsupported: string[] = [];
  if (!cell) return { codes, unsupported, unrecognised: false };
  // A pair of regional indicators spells an ISO code: 🇬🇧 → "gb".
  const spelled = cell.replace(
    REGIONAL_INDICATOR_PAIR,
    (_pair, a: string, b: string) =>
      ` ${String.fromCharCode(a.codePointAt(0)! - 0x1f1e6 + 97)}${String.fromCharCode(b.codePointAt(0)! - 0x1f1e6 + 97)} `,
  );
  const tokens = fold(spelled).replace(DOTS, "").split(TOKEN_SEPARATORS).filter(Boolean);
  const add = (code: NationalityCode) => {
    if (!codes.includes(code)) codes.push(code);
  };
  for (let i = 0; i < tokens.length; i++) {
    const phrase = MULTI_WORD.find(([words]) => words.every((word, k) => tokens[i + k] === word));
    if (phrase) {
      add(phrase[1]);
      i += phrase[0].length - 1;
      continue;
    }
    const token = tokens[i];
    const code = CODE_BY_TOKEN.get(token);
    if (code) add(code);
    else if (isUnsupportedCountryToken(token) && !unsupported.includes(token)) unsupported.push(token);
  }
  const unrecognised = codes.length === 0 && unsupported.length === 0 && tokens.some((token) => !NOT_A_CODE.has(token));
  return { codes, unsupported, unrecognised };
}

function isUnsupportedCountryToken(token: string): boolean {
  if (OTHER_COUNTRY_WORDS.has(token)) return true;
  return /^[a-z]{2,3}$/.test(token) && !NOT_A_CODE.has(token);
}

/** The union of codes of the Host Country and Audience Country cells, in first-seen order. */
export function parseNationality(hostCountry: string | null | undefined, audienceCountry: string | null | undefined): NationalityReading {
  const host = readNationalityCell(hostCountry);
  const audience = readNationalityCell(audienceCountry);
  const codes = [...host.codes];
  for (const code of audience.codes) if (!codes.includes(code)) codes.push(code);
  const unsupported = [...host.unsupported];
  for (const token of audience.unsupported) if (!unsupported.includes(token)) unsupported.push(token);
  return { codes, unsupported, unrecognised: host.unrecognised || audience.unrecognised };
}

const DISPLAY: Readonly<Record<NationalityCode, { flag: string; code: string }>> = {
  UK: { flag: "🇬🇧", code: "GB" },
  FR: { flag: "🇫🇷", code: "FR" },
  CA: { flag: "🇨🇦", code: "CA" },
  NL: { flag: "🇳🇱", code: "NL" },
};

/** The supported codes, in display order (named in the warning of a cell that names none). */
export const SUPPORTED_NATIONALITIES = Object.keys(DISPLAY) as NationalityCode[];

/** Flag and short code shown for a nationality; UK displays as GB. */
export function nationalityDisplay(code: NationalityCode): { flag: string; code: string } {
  return DISPLAY[code];
}
