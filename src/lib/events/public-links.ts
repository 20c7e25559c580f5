// Public links of an event: the share route, the calendar file, and the site's display constants.

import { publicUrl, type Config } from "../config.ts";
import type { LiveEvent } from "./types.ts";

/** Display name of the product. */
export const SITE_NAME = "finder";

/** Host of NEXT_PUBLIC_SITE_URL (calendar UIDs, footer). */
export function siteHost(config: Pick<Config, "siteUrl">): string {
  return new URL(config.siteUrl).host;
}

/** Path of the share route of an event. */
export function sharePath(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return `/event/${encodeURIComponent(event.eventKey)}/${encodeURIComponent(event.slug)}`;
}

/** Absolute share link of an event. */
export function shareUrl(config: Pick<Config, "siteUrl" | "basePath">, event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return publicUrl(config, sharePath(event));
}

/** Path of the event's calendar file. */
export function calendarPath(event: Pick<LiveEvent, "eventKey">): string {
  return `/api/events/${encodeURIComponent(event.eventKey)}/calendar.ics`;
}

/** Finds an event by key, case-insensitively (the slug is decorative). */
export function findEventByKey<E extends Pick<LiveEvent, "eventKey">>(events: readonly E[], rawKey: string): E | undefined {
  const key = rawKey.trim().toLowerCase();
  if (!key || key.length > 64) return undefined;
  return events.find((event) => event.eventKey === key);
}
