// Body checks of the tracking endpoints (see docs/tracking.md, "Endpoints"): exact bounds on trimmed
// text, null counts as absent, unknown keys are ignored, anything that is not a string where a
// string is expected (arrays included) makes the body invalid. Nothing here throws.

import { isPlainObject } from "../http/responses.ts";
import { FILTER_GROUPS } from "../events/filter-query.ts";
import { GENRE_KEYS } from "../sheet/genres.ts";
import { hasControlCharacter, isStorableText } from "../storable-text.ts";

export const ENGAGEMENT_ACTIONS = ["click", "outbound_click", "calendar_sync", "night_save", "night_unsave"] as const;
export type EngagementAction = (typeof ENGAGEMENT_ACTIONS)[number];

/**
 * The My-night actions (an event saved to or removed from the device's My night): counted
 * anonymously, so their rows never carry a session id, a path or a user, whatever the body or the
 * cookie say (see docs/tracking.md, "My-night saves").
 */
export const NIGHT_ACTIONS = ["night_save", "night_unsave"] as const satisfies readonly EngagementAction[];

/** True for night_save and night_unsave. */
export function isNightAction(action: EngagementAction): boolean {
  return (NIGHT_ACTIONS as readonly string[]).includes(action);
}

export const DISCOVERY_ACTIONS = ["search", "filter_apply", "filter_clear"] as const;
export type DiscoveryAction = (typeof DISCOVERY_ACTIONS)[number];

/**
 * The browser's local-storage key of the anonymous session id the tracking bodies carry: every page
 * hands it to static/app.js (data-session-key on <body>) and the privacy page names it, from here.
 */
export const SESSION_STORAGE_KEY = "finder:event-engagement-session";

/** Field bounds of the tracking bodies, in characters (code points) after trimming. */
export const TRACKING_BOUNDS = {
  eventKey: { min: 1, max: 220 },
  sessionId: { max: 120 },
  source: { max: 80 },
  path: { max: 280 },
  filterGroup: { max: 80 },
  filterValue: { max: 120 },
  searchQuery: { min: 2, max: 280 },
} as const;

/** Score added by one preference call: an integer 1–10, 1 when the body does not say. */
export const PREFERENCE_INCREMENT = { min: 1, max: 10, default: 1 } as const;

/** A valid engagement body; optional text is null when absent or blank. */
export interface EngagementInput {
  /** Trimmed and lower-cased, as every incoming event key (see docs/sheet.md, "Event keys and slugs"). */
  eventKey: string;
  actionType: EngagementAction;
  sessionId: string | null;
  source: string | null;
  path: string | null;
}

/** A discovery body that passed the schema; the per-action rules are checked separately. */
export interface DiscoveryInput {
  actionType: DiscoveryAction;
  sessionId: string | null;
  /** Trimmed and lower-cased, one of the ten filter groups. */
  filterGroup: string | null;
  /** Trimmed and lower-cased. */
  filterValue: string | null;
  /** Trimmed and lower-cased. */
  searchQuery: string | null;
  path: string | null;
}

/** A valid genre preference body. */
export interface PreferenceInput {
  genre: string;
  incrementBy: number;
}

const INVALID = Symbol("invalid");
type Text = string | null | typeof INVALID;

/** Length in code points, so an emoji counts as one character like a letter does. */
function characters(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/**
 * One optional text field: absent/null → null; a string is trimmed (blank → null) and must fit
 * the bounds; anything else is invalid. Text Postgres cannot store (NUL, lone surrogates) is invalid.
 */
function optionalText(value: unknown, bounds: { min?: number; max: number }): Text {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return INVALID;
  // Cheap early exit: a string far beyond the bound is never trimmed down to it in practice.
  if (value.length > bounds.max * 8 + 64) return INVALID;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (!isStorableText(trimmed) || hasControlCharacter(trimmed)) return INVALID;
  // UTF-16 length bounds the code-point count from above, so the count is needed only past max.
  if (trimmed.length > bounds.max && characters(trimmed) > bounds.max) return INVALID;
  if (bounds.min !== undefined && characters(trimmed) < bounds.min) return INVALID;
  return trimmed;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** Checks a POST /api/track body; undefined when it does not match the schema. */
export function parseEngagementBody(body: unknown): EngagementInput | undefined {
  if (!isPlainObject(body)) return undefined;
  const actionType = oneOf(body.actionType, ENGAGEMENT_ACTIONS);
  if (!actionType) return undefined;
  const eventKey = optionalText(body.eventKey, TRACKING_BOUNDS.eventKey);
  const sessionId = optionalText(body.sessionId, TRACKING_BOUNDS.sessionId);
  const source = optionalText(body.source, TRACKING_BOUNDS.source);
  const path = optionalText(body.path, TRACKING_BOUNDS.path);
  if (eventKey === null || eventKey === INVALID || sessionId === INVALID || source === INVALID || path === INVALID) return undefined;
  return { eventKey: eventKey.toLowerCase(), actionType, sessionId, source, path };
}

/**
 * Checks a POST /api/track/discovery body against the schema (types, bounds, a known filter
 * group when one is given); undefined when it does not match.
 */
export function parseDiscoveryBody(body: unknown): DiscoveryInput | undefined {
  if (!isPlainObject(body)) return undefined;
  const actionType = oneOf(body.actionType, DISCOVERY_ACTIONS);
  if (!actionType) return undefined;
  const sessionId = optionalText(body.sessionId, TRACKING_BOUNDS.sessionId);
  const filterGroup = optionalText(body.filterGroup, TRACKING_BOUNDS.filterGroup);
  const filterValue = optionalText(body.filterValue, TRACKING_BOUNDS.filterValue);
  const searchQuery = optionalText(body.searchQuery, TRACKING_BOUNDS.searchQuery);
  const path = optionalText(body.path, TRACKING_BOUNDS.path);
  if (sessionId === INVALID || filterGroup === INVALID || filterValue === INVALID || searchQuery === INVALID || path === INVALID) return undefined;
  const group = filterGroup?.toLowerCase() ?? null;
  if (group !== null && !(FILTER_GROUPS as readonly string[]).includes(group)) return undefined;
  return {
    actionType,
    sessionId,
    filterGroup: group,
    filterValue: filterValue?.toLowerCase() ?? null,
    searchQuery: searchQuery?.toLowerCase() ?? null,
    path,
  };
}

/**
 * The per-action rules: filter_apply needs a filter group and a non-empty value; search
 * needs a query of at least 2 characters; filter_clear has no extra rule.
 */
export function discoveryRulesHold(input: DiscoveryInput): boolean {
  switch (input.actionType) {
    case "filter_apply":
      return input.filterGroup !== null && input.filterValue !== null;
    case "search":
      return input.searchQuery !== null;
    case "filter_clear":
      return true;
  }
}

/** Checks a POST /api/user/preference body `{genre, incrementBy}`; undefined when invalid. */
export function parsePreferenceBody(body: unknown): PreferenceInput | undefined {
  if (!isPlainObject(body) || typeof body.genre !== "string" || body.genre.length > 200) return undefined;
  const genre = body.genre.trim().toLowerCase();
  if (!GENRE_KEYS.includes(genre)) return undefined;
  const raw = body.incrementBy;
  if (raw === undefined || raw === null) return { genre, incrementBy: PREFERENCE_INCREMENT.default };
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < PREFERENCE_INCREMENT.min || raw > PREFERENCE_INCREMENT.max) return undefined;
  return { genre, incrementBy: raw };
}
