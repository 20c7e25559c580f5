// Carries cache invalidations between instances over Postgres LISTEN/NOTIFY, so every instance
// drops the same renders. PGlite (a single embedded process) needs nothing of the kind.

import { randomUUID } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { Invalidation, InvalidationBus } from "./invalidation.ts";
import type { Logger } from "../logger.ts";

const CHANNEL = "finder_invalidate";
const MAX_PAYLOAD = 7000;

/**
 * Applies every local invalidation with `apply` and, on a Postgres server, publishes it to the
 * other instances and applies theirs. Returns a function that stops listening.
 */
export async function connectInvalidations(
  database: Database,
  bus: InvalidationBus,
  apply: (invalidation: Invalidation) => void,
  log: Logger,
): Promise<() => Promise<void>> {
  const instance = randomUUID();
  const pg = database.pg;
  let unlisten: (() => Promise<void>) | undefined;
  if (pg) {
    try {
      const listener = await pg.listen(CHANNEL, (payload) => {
        try {
          const message = JSON.parse(payload) as { from?: string; paths?: unknown; tags?: unknown };
          if (message.from === instance) return;
          const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
          apply({ paths: strings(message.paths), tags: strings(message.tags) });
        } catch (error) {
          log.warn("cache", "Ignored a malformed invalidation message", undefined, error);
        }
      });
      unlisten = () => listener.unlisten();
    } catch (error) {
      log.warn("cache", "Could not listen for invalidations from other instances", undefined, error);
    }
  }
  const unsubscribe = bus.subscribe(async (invalidation) => {
    apply(invalidation);
    if (!pg) return;
    const payload = JSON.stringify({ from: instance, paths: invalidation.paths ?? [], tags: invalidation.tags ?? [] });
    if (payload.length > MAX_PAYLOAD) return;
    try {
      await pg.notify(CHANNEL, payload);
    } catch (error) {
      log.warn("cache", "Could not notify other instances of an invalidation", undefined, error);
    }
  });
  return async () => {
    unsubscribe();
    await unlisten?.().catch(() => {});
  };
}
