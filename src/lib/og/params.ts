// Link-preview image parameters (see docs/public-pages.md, "Link-preview image"): parsing, text
// limits and the default title and subtitle.

import { translate, type Language, type MessageKey } from "../i18n/index.ts";

/** Which card to draw: the city guide, or one event's details. */
export type OgVariant = "default" | "event-modal";

/** Normalised parameters of one image. */
export interface OgParams {
  variant: OgVariant;
  /** The language of the image's own words (the labels arrive already in it). */
  language: Language;
  title: string;
  subtitle: string;
  eventCount: number;
  arrondissement: string;
  date: string;
  time: string;
  price: string;
  venue: string;
  genres: string[];
}

export const OG_TEXT_MAX = 110;
const MAX_GENRES = 3;
const MAX_EVENT_COUNT = 9999;

/** Removes `<` and `>`, trims and cuts to 110 characters (109 + "…"), never splitting a character. */
export function ogText(raw: unknown): string {
  if (typeof raw !== "string") return "";
  const text = raw.replace(/[<>]/g, "").replace(/\s+/g, " ").trim();
  const chars = Array.from(text);
  return chars.length > OG_TEXT_MAX ? `${chars.slice(0, OG_TEXT_MAX - 1).join("")}…` : text;
}

function count(raw: string | null): number {
  if (raw === null || !/^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return 0;
  return Math.min(MAX_EVENT_COUNT, Math.max(0, Math.trunc(Number(raw))));
}

/** Reads the query parameters of /api/og, applying the text limits and the default title and subtitle in `language`. */
export function parseOgParams(params: URLSearchParams, siteName: string, language: Language = "en"): OgParams {
  const say = (key: MessageKey, values?: Record<string, string | number>) => translate(language, key, values);
  const get = (name: string) => ogText(params.get(name) ?? "");
  const variant: OgVariant = params.get("variant") === "event-modal" ? "event-modal" : "default";
  const eventCount = count(params.get("eventCount"));
  const arrondissement = get("arrondissement");
  let title = get("title");
  let subtitle = get("subtitle");
  if (variant === "event-modal" && arrondissement) {
    title ||= ogText(say("og.eventsIn", { area: arrondissement }));
    subtitle ||= eventCount > 0 ? say("og.livePicks", { count: eventCount }) : say("og.livePicksNone");
  } else {
    title ||= siteName;
    subtitle ||= eventCount > 0 ? say("og.curatedPicks", { count: eventCount }) : say("og.curatedNone");
  }
  const genres = (params.get("genres") ?? "")
    .split(",")
    .map(ogText)
    .filter(Boolean)
    .slice(0, MAX_GENRES);
  return { variant, language, title, subtitle, eventCount, arrondissement, date: get("date"), time: get("time"), price: get("price"), venue: get("venue"), genres };
}

/** A stable key of the normalised parameters (the rendered-image cache key). */
export function ogCacheKey(params: OgParams): string {
  return JSON.stringify(params);
}
