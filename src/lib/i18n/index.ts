// Languages of the visitor-facing site (see docs/languages.md): French first, English second.
// One message catalogue per language (fr.ts, en.ts, same keys), the request's language
// (its address: the root language at "/", the other under "/<language>/"; see pathLanguage), and the
// platform's Intl for dates, counts and ordinals. A request runs in its language (inSite, set by the
// language plugin); `inLanguage(lang, …)` sets another for one render;
// views and label helpers read that language with `t()` and the formatters below.

import { AsyncLocalStorage } from "node:async_hooks";
import { fr, type Catalogue, type Message, type MessageKey } from "./fr.ts";
import { en } from "./en.ts";
import { memoised } from "../memo/memo.ts";
import { parisFormat } from "../paris-time.ts";

export type { MessageKey } from "./fr.ts";

export type Language = "fr" | "en";
export const LANGUAGES: readonly Language[] = ["fr", "en"];
/**
 * The query parameter that names the language of a calendar file or preview image, and the
 * cookie the former switch set; on a page either only leads to a redirect (language.plugin.ts).
 */
export const LANGUAGE_PARAM = "lang";
export const LANGUAGE_COOKIE = "lang";
/**
 * The language of code that runs outside any request (direct view calls in unit tests, API JSON):
 * every page, calendar file and preview image sets its own with inLanguage.
 */
export const FALLBACK_LANGUAGE: Language = "en";

const CATALOGUES: Readonly<Record<Language, Catalogue>> = { fr, en };
/** BCP 47 tags handed to Intl. */
const LOCALES: Readonly<Record<Language, string>> = { fr: "fr-FR", en: "en-GB" };

export function isLanguage(value: unknown): value is Language {
  return value === "fr" || value === "en";
}

/** The catalogue of a language. */
export function catalogue(language: Language): Catalogue {
  return CATALOGUES[language];
}

/**
 * Where the site's pages live (docs/languages.md, "Addresses"): the base path it is served under
 * ("" or "/fete") and the language at its root (DEFAULT_LANGUAGE, French unless configured); the
 * other language is served under "<base path>/<language>/".
 */
export interface SiteRoot {
  basePath: string;
  rootLanguage: Language;
}

/** The language and site of the request or render in progress. */
interface Current {
  language: Language;
  site?: SiteRoot;
  /** The request's path without base path, language prefix and query ("/submit-event"): the language switch links to it. */
  path?: string;
}

const current = new AsyncLocalStorage<Current>();

/** Runs `render` with `language` as the current language (also across its awaits); the site stays. */
export function inLanguage<T>(language: Language, render: () => T): T {
  const store = current.getStore();
  return current.run({ language, site: store?.site, path: store?.path }, render);
}

/** Runs a request's handling in its language and site (the language plugin, src/pages/language.plugin.ts). */
export function inSite<T>(site: SiteRoot, language: Language, path: string, handle: () => T): T {
  return current.run({ language, site, path }, handle);
}

/** The language of the render in progress. */
export function currentLanguage(): Language {
  return current.getStore()?.language ?? FALLBACK_LANGUAGE;
}

/** The site of the request in progress (undefined outside any request: direct view calls). */
export function currentSite(): SiteRoot | undefined {
  return current.getStore()?.site;
}

/** The path of the request in progress within its language, without its query ("/" outside any request). */
export function currentPath(): string {
  return current.getStore()?.path ?? "/";
}

/** The path prefix of a language's pages after the base path: "" for the root language, "/en" for the other. */
export function languagePrefix(language: Language, site: SiteRoot): string {
  return language === site.rootLanguage ? "" : `/${language}`;
}

/**
 * The language a path (the base path already removed) is in, from its first segment: "/en",
 * "/en/…" → English when English is not the root language; anything else is the root language's.
 */
export function pathLanguage(path: string, site: SiteRoot): Language {
  for (const language of LANGUAGES) {
    if (language === site.rootLanguage || !path.startsWith(`/${language}`)) continue;
    const next = path.charCodeAt(language.length + 1);
    // "/en", "/en/…", "/en?…"; never "/enquete".
    if (Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */) return language;
  }
  return site.rootLanguage;
}

/** The Intl locale of the current language ("fr-FR", "en-GB"). */
export function currentLocale(): string {
  return LOCALES[currentLanguage()];
}

// ---------------------------------------------------------------------------------------------
// Choosing the language of a request

/** The render-cache key of a path in one language: "<path>?lang=<language>" (path invalidation still matches). */
export function languageCacheKey(path: string, language: Language): string {
  return `${path}?${LANGUAGE_PARAM}=${language}`;
}

/** The former switch's `lang` cookie when it names a language. */
export function cookieLanguage(cookieHeader: string | null): Language | null {
  // Most cookie headers carry no language: skip the split.
  if (!cookieHeader || !cookieHeader.includes(LANGUAGE_COOKIE)) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== LANGUAGE_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (isLanguage(value)) return value;
  }
  return null;
}

/** `?lang=` of a URL when it names a language. */
export function queryLanguage(url: URL | string): Language | null {
  if (typeof url === "string") {
    // Most URLs carry no lang parameter: skip the parse.
    if (!url.includes(`${LANGUAGE_PARAM}=`)) return null;
    url = new URL(url);
  }
  const value = url.searchParams.get(LANGUAGE_PARAM);
  return isLanguage(value) ? value : null;
}

// ---------------------------------------------------------------------------------------------
// Messages

type Params = Readonly<Record<string, string | number>>;

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralRule(language: Language, type: Intl.PluralRuleType): Intl.PluralRules {
  const id = `${language}:${type}`;
  let rule = pluralRules.get(id);
  if (!rule) {
    rule = new Intl.PluralRules(LOCALES[language], { type });
    pluralRules.set(id, rule);
  }
  return rule;
}

const numberFormats = new Map<Language, Intl.NumberFormat>();
/** A count in the current language's digits and grouping ("1 234", "1,234"). */
export function formatCount(value: number, language: Language = currentLanguage()): string {
  const small = smallCount(value);
  if (small !== null) return (COUNT_TEXTS[language][small] ??= countFormat(language).format(value));
  return countFormat(language).format(value);
}

function countFormat(language: Language): Intl.NumberFormat {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 2 });
    numberFormats.set(language, format);
  }
  return format;
}

// The counts of a page (events found, areas, dates, people who saved) are small whole numbers
// asked for on every render: their text and plural form are kept per language (each an Intl call).
const SMALL_COUNTS = 10_000;
function smallCount(value: number): number | null {
  return Number.isInteger(value) && value >= 0 && value < SMALL_COUNTS && !Object.is(value, -0) ? value : null;
}
const COUNT_TEXTS = Object.fromEntries(LANGUAGES.map((language) => [language, [] as string[]])) as Record<Language, string[]>;
const PLURAL_FORMS = Object.fromEntries(LANGUAGES.map((language) => [language, [] as Intl.LDMLPluralRule[]])) as Record<Language, Intl.LDMLPluralRule[]>;

function cardinalForm(language: Language, count: number): Intl.LDMLPluralRule {
  const small = smallCount(count);
  if (small !== null) return (PLURAL_FORMS[language][small] ??= pluralRule(language, "cardinal").select(count));
  return pluralRule(language, "cardinal").select(count);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
/**
 * An amount or a range of money by the language's conventions ("10 €", "10–15 €", "12,50 €" /
 * "€10", "€10 – €15", "€12.50"): whole amounts without decimals, others with two.
 */
export function formatMoney(min: number, max: number, currency: "EUR" | "GBP", language: Language = currentLanguage()): string {
  const cents = !Number.isInteger(min) || !Number.isInteger(max);
  const id = `${language}:${currency}:${cents}`;
  let format = moneyFormats.get(id);
  if (!format) {
    const digits = cents ? 2 : 0;
    format = new Intl.NumberFormat(LOCALES[language], { style: "currency", currency, currencyDisplay: "narrowSymbol", minimumFractionDigits: digits, maximumFractionDigits: digits });
    moneyFormats.set(id, format);
  }
  // formatRange is ES2023 Intl (in every current engine); the project's TypeScript lib is ES2022.
  return min === max ? format.format(min) : (format as Intl.NumberFormat & { formatRange(start: number, end: number): string }).formatRange(min, max);
}

function pick(message: Message, language: Language, count: number | undefined): string {
  if (typeof message === "string") return message;
  const form = count === undefined ? "other" : cardinalForm(language, count);
  return message[form] ?? message.other;
}

function fill(text: string, params: Params | undefined, language: Language): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? formatCount(value, language) : value;
  });
}

/**
 * The message `key` in the current language, with `{name}` placeholders filled from `params`
 * (numbers formatted by Intl). Plural messages pick their form with Intl.PluralRules from
 * `params.count`.
 */
export function t(key: MessageKey, params?: Params): string {
  return translate(currentLanguage(), key, params);
}

/** `t` for an explicit language. */
export function translate(language: Language, key: MessageKey, params?: Params): string {
  const count = typeof params?.count === "number" ? params.count : undefined;
  return fill(pick(CATALOGUES[language][key], language, count), params, language);
}

/** The client strings (keys starting with "client."), without the prefix, for static/app.js. */
export function clientMessages(language: Language): Record<string, Message> {
  const out: Record<string, Message> = {};
  for (const [key, value] of Object.entries(CATALOGUES[language])) {
    if (key.startsWith("client.")) out[key.slice("client.".length)] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates, times and ordinals (Intl, Paris wall clock)

function dateFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return parisFormat(LOCALES[language], options);
}

/** Noon Paris time of a valid YYYY-MM-DD date (far from any DST edge), or null. */
function noonOf(iso: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 10));
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : date;
}

/** "dim. 21 juin" / "Sun 21 June": weekday, day and month of a sheet date; "à confirmer" / "TBC" otherwise. */
export function formatDay(iso: string, language: Language = currentLanguage()): string {
  return dayLabels(`${language}|${iso}`);
}

/** "lundi 21 juin 2027" / "Monday 21 June 2027": a day named in full, with its year. */
export function formatFullDay(iso: string, language: Language = currentLanguage()): string {
  const date = noonOf(iso);
  if (!date) return translate(language, "common.tbc");
  return dateFormat(language, { weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(date);
}

/** "ven. 19 juin 2026" / "Fri 19 June 2026": the day label with its year (a date outside the current edition). */
export function formatDayWithYear(iso: string, language: Language = currentLanguage()): string {
  const date = noonOf(iso);
  if (!date) return translate(language, "common.tbc");
  return dateFormat(language, { weekday: "short", day: "numeric", month: "long", year: "numeric" }).format(date);
}

/** "15–22 juin 2027" / "15–22 June 2027": a range of days with its year (an edition's window). */
export function formatDayRangeWithYear(startIso: string, endIso: string, language: Language = currentLanguage()): string {
  const start = noonOf(startIso);
  const end = noonOf(endIso);
  if (!start || !end) return translate(language, "common.tbc");
  return dateFormat(language, { day: "numeric", month: "long", year: "numeric" }).formatRange(start, end);
}

/** "21 juin" / "21 June". */
export function formatDayMonth(iso: string, language: Language = currentLanguage()): string {
  const date = noonOf(iso);
  if (!date) return translate(language, "common.tbc");
  return dateFormat(language, { day: "numeric", month: "long" }).format(date);
}

/** A range of two sheet dates by Intl: "19–21 juin", "30 juin – 2 juil."; one day gives "21 juin". */
export function formatDayRange(startIso: string, endIso: string, language: Language = currentLanguage()): string {
  if (!ISO_DATE.test(startIso) || !ISO_DATE.test(endIso)) return dayRange(startIso, endIso, language);
  return dayRangeLabels(`${language}|${startIso}|${endIso}`);
}

// The day labels are pure functions of the language and the dates, asked for by every card, chip
// and stats row: each is worked out once (an Intl call otherwise). Keys are "language|date" (a
// language code has no "|") and "language|start|end" (two dates shaped YYYY-MM-DD: other texts
// are not kept).
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const dayLabels = memoised(5_000, (key: string) => {
  const cut = key.indexOf("|");
  const language = key.slice(0, cut) as Language;
  const iso = key.slice(cut + 1);
  const date = noonOf(iso);
  if (!date) return translate(language, "common.tbc");
  return dateFormat(language, { weekday: "short", day: "numeric", month: "long" }).format(date);
});

const dayRangeLabels = memoised(5_000, (key: string) => {
  const [language, startIso, endIso] = key.split("|") as [Language, string, string];
  return dayRange(startIso, endIso, language);
});

function dayRange(startIso: string, endIso: string, language: Language): string {
  const start = noonOf(startIso);
  const end = noonOf(endIso);
  if (!start) return translate(language, "common.tbc");
  if (!end || startIso === endIso) return formatDayMonth(startIso, language);
  const sameYear = startIso.slice(0, 4) === endIso.slice(0, 4);
  const options: Intl.DateTimeFormatOptions = sameYear ? { day: "numeric", month: "short" } : { day: "numeric", month: "short", year: "numeric" };
  return dateFormat(language, options).formatRange(start, end);
}

/** The ordinal of a number: "1er", "20e" / "1st", "20th" (Intl.PluralRules, ordinal type). */
export function formatOrdinal(value: number, language: Language = currentLanguage()): string {
  const form = pluralRule(language, "ordinal").select(value);
  return translate(language, `ordinal.${form}` as MessageKey, { n: String(value) });
}

/** Keys whose message is trusted markup (they end in "Html"). */
export type HtmlMessageKey = Extract<MessageKey, `${string}Html`>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A markup message ("…Html" keys: the catalogue's own links, <code> and <strong>, written in
 * source, never data) with its `{name}` placeholders filled with escaped text.
 */
export function tHtml(key: HtmlMessageKey, params?: Params): string {
  const escaped: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params ?? {})) escaped[name] = typeof value === "number" ? value : escapeHtml(value);
  return t(key, escaped);
}
