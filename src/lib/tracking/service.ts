// Tracking as the endpoints use it (see docs/tracking.md, "Validation order"): the fixed order of
// checks for engagement, discovery and genre preferences, in front of the write-behind queues and
// the in-memory limiter. Every outcome is an answer of 202 for the caller; the outcome names are
// for tests and logs. One service per process: `buildDeps` creates it and flushes its queues on
// shutdown; the scheduled task `prune-tracking-markers` deletes old write-batch markers.

import type { Config } from "../config.ts";
import type { SigningKey } from "../auth/jwt-key.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { InvalidationBus } from "../serving/invalidation.ts";
import type { EventReader } from "../events/pipeline.ts";
import { RATE_LIMITS, limiterParts, type RateLimitRule } from "../rate-limit/fixed-window.ts";
import { createBatchedLimiter, type BatchedLimiter, type BatchedLimiterStats } from "../rate-limit/batched.ts";
import { createLiveCatalog, type LiveCatalog } from "./catalog.ts";
import { createVisitorResolver, type VisitorResolver } from "./visitor.ts";
import { createWriteBehind, type WriteBehind, type WriteBehindStats } from "./write-behind.ts";
import { insertDiscoveryBatch, insertEngagementBatch, upsertPreferenceBatch, type DiscoveryRow, type EngagementRow, type PreferenceIncrement } from "./rows.ts";
import { discoveryRulesHold, isNightAction, parseDiscoveryBody, parseEngagementBody, parsePreferenceBody } from "./validation.ts";

/** What happened to one tracking request (the caller always gets 202). */
export type TrackOutcome =
  | "recorded"
  | "invalid"
  | "unknown_event"
  | "catalog_unavailable"
  | "limited"
  | "limiter_unavailable"
  | "rule_failed"
  | "anonymous"
  | "backlog_full";

/** The request facts tracking needs besides the body. */
export interface TrackContext {
  ip: string;
  request: Request;
}

export interface TrackingStats {
  engagement: WriteBehindStats;
  discovery: WriteBehindStats;
  preferences: WriteBehindStats;
  limiter: BatchedLimiterStats;
}

export interface TrackingService {
  trackEngagement(body: unknown, context: TrackContext): Promise<TrackOutcome>;
  trackDiscovery(body: unknown, context: TrackContext): Promise<TrackOutcome>;
  recordPreference(body: unknown, context: TrackContext): Promise<TrackOutcome>;
  /** Writes every queued row and limiter count now (tests call this instead of sleeping). */
  flush(): Promise<boolean>;
  /** Flushes and stops; registered as a shutdown hook. */
  close(): Promise<void>;
  /** The database is back: the limiter decides again at once and the queues drain now. */
  resume(): void;
  stats(): TrackingStats;
  catalog: LiveCatalog;
  limiter: BatchedLimiter;
}

/** Tuning of the queues and the limiter front (tests shrink them). */
export interface TrackingOptions {
  batchSize?: number;
  flushIntervalMs?: number;
  maxQueued?: number;
  /** Statements in flight at once per queue (default 2; buildDeps gives a Postgres server more). */
  maxInFlight?: number;
  /** Backlog age past which callers wait for their write (default 200 ms). */
  maxBacklogMs?: number;
  limiterFlushIntervalMs?: number;
  limiterMaxKeys?: number;
}

/** What the tracking service is built from. */
export interface TrackingDeps {
  config: Pick<Config, "authSecret" | "trackingLimiterFallback">;
  signingKey: SigningKey;
  log: Logger;
  db: Db;
  now: () => Date;
  events: Pick<EventReader, "load">;
  invalidation: Pick<InvalidationBus, "subscribe">;
}

/** Builds the tracking service over the process dependencies. */
export function createTrackingService(deps: TrackingDeps, options: TrackingOptions = {}): TrackingService {
  const { log, db } = deps;
  const queue = { batchSize: options.batchSize, flushIntervalMs: options.flushIntervalMs, maxQueued: options.maxQueued, maxInFlight: options.maxInFlight, maxBacklogMs: options.maxBacklogMs, log };
  const engagement: WriteBehind<EngagementRow> = createWriteBehind({ ...queue, name: "engagement", write: (rows, id) => insertEngagementBatch(db, rows, id) });
  const discovery: WriteBehind<DiscoveryRow> = createWriteBehind({ ...queue, name: "discovery", write: (rows, id) => insertDiscoveryBatch(db, rows, id) });
  const preferences: WriteBehind<PreferenceIncrement> = createWriteBehind({ ...queue, name: "genre-preferences", write: (rows, id) => upsertPreferenceBatch(db, rows, id) });
  const limiter = createBatchedLimiter({
    db,
    secret: deps.config.authSecret,
    log,
    now: deps.now,
    flushIntervalMs: options.limiterFlushIntervalMs,
    maxKeys: options.limiterMaxKeys,
    localFallback: deps.config.trackingLimiterFallback === "local",
  });
  const catalog = createLiveCatalog({
    log,
    now: () => deps.now().getTime(),
    load: async () => (await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false })).events.map((e) => e.eventKey),
  });
  // A publish (homepage invalidation) may add or remove events: read the catalog again.
  const unsubscribe = deps.invalidation.subscribe((invalidation) => {
    if (invalidation.paths?.includes("/")) catalog.invalidate();
  });
  const visitors = createVisitorResolver(deps.signingKey, deps.now);

  const tracking: Tracking = { deps, catalog, limiter, visitors, engagement, discovery, preferences };
  return {
    catalog,
    limiter,
    trackEngagement: (body, context) => trackEngagement(tracking, body, context),
    trackDiscovery: (body, context) => trackDiscovery(tracking, body, context),
    recordPreference: (body, context) => recordPreference(tracking, body, context),
    async flush() {
      const results = await Promise.all([engagement.flush(), discovery.flush(), preferences.flush(), limiter.flush()]);
      return results.every(Boolean);
    },
    resume() {
      limiter.resume();
      for (const queue of [engagement, discovery, preferences]) queue.resume();
    },
    async close() {
      unsubscribe();
      await Promise.all([engagement.close(), discovery.close(), preferences.close(), limiter.close()]);
    },
    stats: () => ({ engagement: engagement.stats(), discovery: discovery.stats(), preferences: preferences.stats(), limiter: limiter.stats() }),
  };
}

/** What the three tracking paths share: the dependencies, the live catalog, the limiter, the visitor resolver and the queues. */
interface Tracking {
  deps: TrackingDeps;
  catalog: LiveCatalog;
  limiter: BatchedLimiter;
  visitors: VisitorResolver;
  engagement: WriteBehind<EngagementRow>;
  discovery: WriteBehind<DiscoveryRow>;
  preferences: WriteBehind<PreferenceIncrement>;
}

/** Queues a row; past the backlog's time bound the caller waits for its row to be written before its 202. */
async function enqueued<T>(queue: WriteBehind<T>, row: T): Promise<TrackOutcome> {
  if (!queue.enqueue(row)) return "backlog_full";
  const wait = queue.backpressure();
  if (wait) await wait;
  return "recorded";
}

/** Counts a hit under a strict rule; undefined when allowed, else `limited` or `limiter_unavailable`. */
function strictLimit(limiter: BatchedLimiter, rule: RateLimitRule, part: string): TrackOutcome | undefined {
  const decision = limiter.hit(rule, [part], { failOpen: false });
  if (decision.allowed) return undefined;
  return decision.status === "unavailable" ? "limiter_unavailable" : "limited";
}

/**
 * Engagement. Order: JSON and schema → live catalog → IP limit → session limit when a sessionId is
 * given → cookie → insert. My-night actions stop after the IP limit and are queued without session,
 * path or user.
 */
async function trackEngagement({ deps, catalog, limiter, visitors, engagement }: Tracking, body: unknown, { ip, request }: TrackContext): Promise<TrackOutcome> {
  const input = parseEngagementBody(body);
  if (!input) return "invalid";
  const check = catalog.has(input.eventKey);
  const known = check instanceof Promise ? await check : check;
  if (known === undefined) return "catalog_unavailable";
  if (!known) return "unknown_event";
  const limitedIp = strictLimit(limiter, RATE_LIMITS.trackEventIp, limiterParts.ip(ip));
  if (limitedIp) return limitedIp;
  // My-night saves are anonymous: no session (its limit does not apply), no cookie read, no path
  // (My night's address lists the device's saved keys), only the key, the action and the source.
  if (isNightAction(input.actionType)) {
    return enqueued(engagement, {
      event_key: input.eventKey,
      action_type: input.actionType,
      session_id: null,
      source: input.source,
      path: null,
      is_authenticated: false,
      user_email: null,
      recorded_at: deps.now().toISOString(),
    });
  }
  const limitedSession = input.sessionId === null ? undefined : strictLimit(limiter, RATE_LIMITS.trackEventSession, limiterParts.session(input.sessionId));
  if (limitedSession) return limitedSession;
  const visitor = visitors.emailFor(request);
  const email = visitor instanceof Promise ? await visitor : visitor;
  return enqueued(engagement, {
    event_key: input.eventKey,
    action_type: input.actionType,
    session_id: input.sessionId,
    source: input.source,
    path: input.path,
    is_authenticated: email !== undefined,
    user_email: email ?? null,
    recorded_at: deps.now().toISOString(),
  });
}

/**
 * Discovery. Order: JSON and schema → IP limit → cookie → rules → session limit → insert. The
 * session limit applies with or without a sessionId (an absent one counts as the session "unknown").
 */
async function trackDiscovery({ deps, limiter, visitors, discovery }: Tracking, body: unknown, { ip, request }: TrackContext): Promise<TrackOutcome> {
  const input = parseDiscoveryBody(body);
  if (!input) return "invalid";
  const limitedIp = strictLimit(limiter, RATE_LIMITS.trackDiscoveryIp, limiterParts.ip(ip));
  if (limitedIp) return limitedIp;
  const visitor = visitors.emailFor(request);
  const email = visitor instanceof Promise ? await visitor : visitor;
  if (!discoveryRulesHold(input)) return "rule_failed";
  const limitedSession = strictLimit(limiter, RATE_LIMITS.trackDiscoverySession, limiterParts.session(input.sessionId ?? ""));
  if (limitedSession) return limitedSession;
  return enqueued(discovery, {
    action_type: input.actionType,
    session_id: input.sessionId,
    user_email: email ?? null,
    filter_group: input.filterGroup,
    filter_value: input.filterValue,
    search_query: input.searchQuery,
    path: input.path,
    is_authenticated: email !== undefined,
    recorded_at: deps.now().toISOString(),
  });
}

/** Genre preference. Order: JSON and schema → IP limit (a limiter that cannot decide lets it through) → cookie (anonymous is a no-op) → atomic upsert. */
async function recordPreference({ deps, limiter, visitors, preferences }: Tracking, body: unknown, { ip, request }: TrackContext): Promise<TrackOutcome> {
  const input = parsePreferenceBody(body);
  if (!input) return "invalid";
  const perIp = limiter.hit(RATE_LIMITS.userPreferenceIp, [limiterParts.ip(ip)], { failOpen: true });
  if (!perIp.allowed) return "limited";
  const pending = visitors.visitorFor(request);
  const visitor = pending instanceof Promise ? await pending : pending;
  if (!visitor) return "anonymous";
  return enqueued(preferences, { email: visitor.email, sid: visitor.sid ?? null, genre: input.genre, score: input.incrementBy, at: deps.now().toISOString() });
}
