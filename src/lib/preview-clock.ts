// The preview clock (docs/public-pages.md, "Preview clock"): outside production, `?at=2026-06-21T21:30`
// (Paris wall time) on a public page makes the clock-dependent pages render at that minute, so
// editors, testers and newcomers can see festival night on any day. The choice is kept in a session
// cookie while browsing; `?at=off` leaves it. Production never reads either (`previewAllowed`).
// Pages rendered at a preview minute are per visitor: never stored in the shared render cache and
// sent `private, no-store`.

import type { Config } from "./config.ts";
import { parisWallClockInstant } from "./paris-time.ts";
import { PRIVATE_NO_STORE_HEADERS } from "./http/responses.ts";

/** The query parameter that sets (or, with `off`, leaves) the preview clock. */
export const PREVIEW_PARAM = "at";
/** The value of `at` that leaves the preview. */
export const PREVIEW_OFF = "off";
/** The session cookie that keeps the preview minute while browsing (the wall time, as given). */
export const PREVIEW_COOKIE = "finder-preview-at";
/** The headers of a page rendered at a preview minute: never kept by a shared cache. */
export const PREVIEW_HEADERS = PRIVATE_NO_STORE_HEADERS;

/** A preview minute: the Paris wall time as written (`2026-06-21T21:30`) and its instant. */
export interface PreviewClock {
  /** `YYYY-MM-DDTHH:mm`, Paris wall time. */
  value: string;
  date: string;
  time: string;
  at: Date;
}

/** True when the preview clock may be used: every environment but production. */
export function previewAllowed(config: Pick<Config, "nodeEnv">): boolean {
  return config.nodeEnv !== "production";
}

/**
 * Reads a preview minute: exactly `YYYY-MM-DDTHH:mm`, a real calendar date and a time that exists
 * on the Paris clock (not in the spring-forward gap), in the years 2000–2099. Null otherwise.
 */
export function parsePreviewClock(raw: string | null | undefined): PreviewClock | null {
  if (!raw || raw.length !== 16) return null;
  const at = parisWallClockInstant(raw);
  if (!at) return null;
  const year = Number(raw.slice(0, 4));
  if (year < 2000 || year > 2099) return null;
  return { value: raw, date: raw.slice(0, 10), time: raw.slice(11, 16), at };
}

/** What `?at=` asks for: set a minute, leave the preview, or an invalid value (400). Null without `at`. */
export type PreviewRequest = { kind: "set"; clock: PreviewClock } | { kind: "off" } | { kind: "invalid"; value: string };

/** Reads the `at` parameter of a URL. */
export function previewRequestOf(search: URLSearchParams): PreviewRequest | null {
  const raw = search.get(PREVIEW_PARAM);
  if (raw === null) return null;
  const value = raw.trim();
  if (value === "" || value === PREVIEW_OFF) return { kind: "off" };
  const clock = parsePreviewClock(value);
  return clock ? { kind: "set", clock } : { kind: "invalid", value: value.slice(0, 40) };
}

/** The preview minute a cookie header carries, or null (absent or not a valid minute: ignored). */
export function previewFromCookie(cookieHeader: string | null): PreviewClock | null {
  // Nearly every request has no preview cookie: skip the split.
  if (!cookieHeader || !cookieHeader.includes(PREVIEW_COOKIE)) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== PREVIEW_COOKIE) continue;
    return parsePreviewClock(decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return null;
}

/** The preview minute of a request, or null (always null in production). */
export function previewOf(config: Pick<Config, "nodeEnv">, headers: Headers): PreviewClock | null {
  return previewAllowed(config) ? previewFromCookie(headers.get("cookie")) : null;
}

/** The Set-Cookie value that keeps a preview minute for the browsing session, or clears it (null). */
export function previewCookieHeader(clock: PreviewClock | null): string {
  const base = `${PREVIEW_COOKIE}=${clock ? encodeURIComponent(clock.value) : ""}; Path=/; SameSite=Lax; HttpOnly`;
  return clock ? base : `${base}; Max-Age=0`;
}

/** A URL's path and query without `at`: where a preview request is sent once the cookie is set. */
export function withoutPreviewParam(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(PREVIEW_PARAM);
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** A request's clock: the preview minute when one applies, else the real clock. */
export function requestClock(config: Pick<Config, "nodeEnv">, headers: Headers, now: () => Date): { now: Date; preview: PreviewClock | null } {
  const preview = previewOf(config, headers);
  return { now: preview ? preview.at : now(), preview };
}
