// The sliding banner (see docs/public-pages.md, "Sliding banner"): settings kept in KV, read with
// defaults, validated on save, and the public view the page header renders. The banner is part of
// cached pages, so a save drops `/`, `/feature-event` and every render tagged `sliding-banner`.

import type { Kv } from "../kv.ts";
import { t, translate } from "../i18n/index.ts";
import type { Logger } from "../logger.ts";
import type { InvalidationBus } from "../serving/invalidation.ts";

/** KV key of the banner settings. */
export const BANNER_KV_KEY = "ui:sliding-banner:v1";
/** Render-cache tag of every render that shows the banner. */
export const BANNER_CACHE_TAG = "sliding-banner";
/** Pages whose layout shows the banner (invalidated on save). */
export const BANNER_PAGES: readonly string[] = ["/", "/feature-event"];

/** Catalogue keys of the default messages: pages show them in the page's language. */
const DEFAULT_BANNER_KEYS = ["banner.default.date", "banner.default.calendar", "banner.default.filters", "banner.default.submit"] as const;

/** The default messages as stored and shown in the console (English, like the console). */
export const DEFAULT_BANNER_MESSAGES: readonly string[] = DEFAULT_BANNER_KEYS.map((key) => translate("en", key));

/**
 * The messages a page shows in the current language: the stored ones as written (the team's own
 * words), except the defaults, which read from the catalogue of the page's language.
 */
export function bannerMessagesToShow(messages: readonly string[]): readonly string[] {
  const isDefault = messages.length === DEFAULT_BANNER_MESSAGES.length && messages.every((message, i) => message === DEFAULT_BANNER_MESSAGES[i]);
  return isDefault ? DEFAULT_BANNER_KEYS.map((key) => t(key)) : messages;
}

export const BANNER_DURATION_DEFAULT_MS = 4200;
export const BANNER_DURATION_MIN_MS = 1800;
export const BANNER_DURATION_MAX_MS = 12000;
export const BANNER_MAX_MESSAGES = 12;
export const BANNER_MAX_MESSAGE_LENGTH = 160;
/** Refusal text when an enabled banner has no message. */
export const BANNER_EMPTY_ERROR = "Banner needs at least one message when enabled";

/** The stored settings. */
export interface BannerSettings {
  version: 1;
  enabled: boolean;
  messages: string[];
  messageDurationMs: number;
  desktopMessageCount: 1 | 2;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** What pages see: the settings without updatedBy. */
export type PublicBanner = Omit<BannerSettings, "updatedBy">;

/** The settings used when nothing (or nothing valid) is stored. */
export function defaultBannerSettings(): BannerSettings {
  return {
    version: 1,
    enabled: true,
    messages: [...DEFAULT_BANNER_MESSAGES],
    messageDurationMs: BANNER_DURATION_DEFAULT_MS,
    desktopMessageCount: 2,
    updatedAt: null,
    updatedBy: null,
  };
}

const WHITESPACE_RUN = /\s+/g;

/** Messages as saved: strings only, whitespace collapsed, empties removed, at most 12 of 160 characters. */
export function cleanBannerMessages(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  const out: string[] = [];
  for (const item of input) {
    if (typeof item !== "string") continue;
    const text = [...item.replace(WHITESPACE_RUN, " ").trim()].slice(0, BANNER_MAX_MESSAGE_LENGTH).join("").trim();
    if (text !== "") out.push(text);
    if (out.length >= BANNER_MAX_MESSAGES) break;
  }
  return out;
}

/** Message duration rounded and clamped to 1800–12000 ms; anything non-numeric is the default. */
export function clampMessageDuration(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) return BANNER_DURATION_DEFAULT_MS;
  return Math.min(BANNER_DURATION_MAX_MS, Math.max(BANNER_DURATION_MIN_MS, Math.round(n)));
}

function desktopCount(value: unknown): 1 | 2 {
  return value === 1 || value === "1" ? 1 : 2;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Settings from a stored value: anything that is not an object gives the defaults; each field
 * falls back to its default on its own. An enabled banner whose messages are all unusable shows
 * the default messages rather than an empty strip.
 */
export function readBannerValue(value: unknown): BannerSettings {
  const defaults = defaultBannerSettings();
  if (!isRecord(value)) return defaults;
  const enabled = typeof value.enabled === "boolean" ? value.enabled : defaults.enabled;
  const messages = cleanBannerMessages(value.messages);
  return {
    version: 1,
    enabled,
    messages: messages.length > 0 ? messages : enabled ? defaults.messages : [],
    messageDurationMs: clampMessageDuration(value.messageDurationMs),
    desktopMessageCount: desktopCount(value.desktopMessageCount),
    updatedAt: typeof value.updatedAt === "string" ? value.updatedAt : null,
    updatedBy: typeof value.updatedBy === "string" ? value.updatedBy : null,
  };
}

/** Reads the settings; a missing key, invalid JSON or a failed read gives the defaults. */
export async function findBannerSettings(deps: { kv: Kv; log: Logger }): Promise<BannerSettings> {
  try {
    return readBannerValue(await deps.kv.get(BANNER_KV_KEY));
  } catch (error) {
    deps.log.warn("banner", "Banner settings unreadable; showing the defaults", undefined, error);
    return defaultBannerSettings();
  }
}

/** The public view (no updatedBy). */
export function publicBanner(settings: BannerSettings): PublicBanner {
  const { updatedBy: _hidden, ...view } = settings;
  return view;
}

export type BannerValidation = { ok: true; settings: BannerSettings } | { ok: false; error: string };

/** Validates an admin update against the current settings (fields not given keep their value). */
export function validateBannerUpdate(input: unknown, current: BannerSettings, meta: { now: Date; updatedBy: string }): BannerValidation {
  const body = isRecord(input) ? input : {};
  const enabled = typeof body.enabled === "boolean" ? body.enabled : body.enabled === "true" ? true : body.enabled === "false" ? false : current.enabled;
  const messages = "messages" in body ? cleanBannerMessages(body.messages) : current.messages;
  if (enabled && messages.length === 0) return { ok: false, error: BANNER_EMPTY_ERROR };
  return {
    ok: true,
    settings: {
      version: 1,
      enabled,
      messages,
      messageDurationMs: "messageDurationMs" in body ? clampMessageDuration(body.messageDurationMs) : current.messageDurationMs,
      desktopMessageCount: "desktopMessageCount" in body ? desktopCount(body.desktopMessageCount) : current.desktopMessageCount,
      updatedAt: meta.now.toISOString(),
      updatedBy: meta.updatedBy,
    },
  };
}

/** Validates and saves an update, then drops the cached pages that show the banner. */
export async function saveBannerSettings(
  deps: { kv: Kv; log: Logger; invalidation: InvalidationBus; now: () => Date },
  input: unknown,
  updatedBy: string,
): Promise<BannerValidation> {
  const current = await findBannerSettings(deps);
  const result = validateBannerUpdate(input, current, { now: deps.now(), updatedBy });
  if (!result.ok) return result;
  await deps.kv.set(BANNER_KV_KEY, result.settings);
  await deps.invalidation.invalidate({ paths: [...BANNER_PAGES], tags: [BANNER_CACHE_TAG] });
  return result;
}

/** Marquee loop length in seconds: messageDurationMs ÷ 1000 × 4.75, clamped to 8–120 s. */
export function bannerAnimationSeconds(messageDurationMs: number): number {
  const seconds = (clampMessageDuration(messageDurationMs) / 1000) * 4.75;
  return Math.round(Math.min(120, Math.max(8, seconds)) * 100) / 100;
}

/** The marquee text: messages joined with " • ". */
export function bannerText(messages: readonly string[]): string {
  return messages.join(" • ");
}
