// Finding one live event by its key, the way every public route looks an event up.

import type { LiveEvent } from "../sheet/types.ts";

/** Finds an event by key, case-insensitively (the slug is decorative). */
export function findEventByKey<E extends Pick<LiveEvent, "eventKey">>(events: readonly E[], rawKey: string): E | undefined {
  const key = rawKey.trim().toLowerCase();
  if (!key || key.length > 64) return undefined;
  return events.find((event) => event.eventKey === key);
}
