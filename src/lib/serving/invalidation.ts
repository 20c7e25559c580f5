// Cache invalidation requests: writes that change what visitors see announce the paths and tags to
// drop; the render cache (and, across instances, LISTEN/NOTIFY) subscribes.

/** What to drop: exact paths (every cached variant of them) and tags. */
export interface Invalidation {
  paths?: readonly string[];
  tags?: readonly string[];
}

export type InvalidationListener = (invalidation: Invalidation) => void | Promise<void>;

/** A tiny publish/subscribe bus for invalidations. */
export interface InvalidationBus {
  invalidate(invalidation: Invalidation): Promise<void>;
  subscribe(listener: InvalidationListener): () => void;
}

/** Creates the bus; listeners run in subscription order and one failing listener does not stop the rest. */
export function createInvalidationBus(onError: (error: unknown) => void = () => {}): InvalidationBus {
  const listeners = new Set<InvalidationListener>();
  return {
    async invalidate(invalidation) {
      for (const listener of listeners) {
        try {
          await listener(invalidation);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Tag of every cached response built from the live events (API, calendar feed). */
export const LIVE_EVENTS_TAG = "live-events";

/** What a homepage revalidation drops: the homepage (all variants) and everything built from live events. */
export const HOMEPAGE = { paths: ["/"], tags: [LIVE_EVENTS_TAG] } as const;
