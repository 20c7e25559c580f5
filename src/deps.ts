// Builds the dependencies every area receives, once per process: config, logger, database, KV,
// rate limiter, tracking, clock, and the hooks that flush pending work on shutdown. Every piece
// of per-process state is created here; lib modules keep none of their own.

import type { AdminLoginBackstop } from "./lib/auth/admin-login.ts";
import type { Config } from "./lib/config.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { openDatabase, type Database, type Db } from "./lib/db/client.ts";
import { migrateDatabase } from "./lib/db/migrate.ts";
import { copyPgliteTemplate } from "./lib/db/pglite-template.ts";
import { createKv, type Kv } from "./lib/kv.ts";
import { createRateLimiter, type RateLimiter } from "./lib/rate-limit/fixed-window.ts";
import { createInvalidationBus, type Invalidation, type InvalidationBus } from "./lib/serving/invalidation.ts";
import { createEventReader, type EventReader } from "./lib/events/pipeline.ts";
import { createRenderCache, type RenderCache } from "./lib/serving/render-cache.ts";
import { connectInvalidations } from "./lib/serving/invalidation-channel.ts";
import { createJobRegistry, type JobRegistry } from "./lib/admin/jobs.ts";
import { createBoundaryTimer, type BoundaryTimer } from "./lib/placements/boundary-timer.ts";
import { PLACEMENT_PAGES } from "./lib/placements/service.ts";
import { createTrackingService, type TrackingOptions, type TrackingService } from "./lib/tracking/service.ts";
import { createSigningKey, type SigningKey } from "./lib/auth/jwt-key.ts";
import { prepareAdminSessionLookup, type AdminSessionLookup } from "./lib/auth/admin-sessions.ts";
import { createOutboxWorker, type OutboxWorker } from "./lib/mail/worker.ts";
import type { KeptPublishedSheet } from "./lib/store/published.ts";
import type { KeptComparison } from "./lib/admin/drafts.ts";
import type { OverLimitTable } from "./lib/auth/admin-credential-limit.ts";
import { announcesEditions, reloadEditions, type KeptEditions } from "./lib/site/edition-settings.ts";
import { createSheetTokenCache, type SheetTokenCache } from "./lib/spreadsheet-import/service-account.ts";

/** Something to run on shutdown (flush buffers, stop timers), in registration order. */
export type ShutdownHook = () => Promise<void> | void;

export interface Deps {
  config: Config;
  log: Logger;
  database: Database;
  db: Db;
  kv: Kv;
  limiter: RateLimiter;
  /** The live-events read pipeline. */
  events: EventReader;
  /** Announces cache invalidations (render cache, other instances). */
  invalidation: InvalidationBus;
  /** Rendered pages, precompressed (see docs/public-pages.md, "Render cache"). */
  renderCache: RenderCache;
  /** Tracking: validation, the in-memory limiter and the write-behind queues (flushed on shutdown). */
  tracking: TrackingService;
  /** AUTH_SECRET with its HMAC key, imported once (signs and verifies the session tokens). */
  signingKey: SigningKey;
  /** The prepared admin-session check of this database. */
  adminSessionLookup: AdminSessionLookup;
  /** Drops the pages when a placement starts or ends (see lib/placements/boundary-timer.ts). */
  placementTimer: BoundaryTimer;
  /** Sends the email outbox over SMTP_URL (see lib/mail/worker.ts); the send-outbox task drains it. */
  outbox: OutboxWorker;
  /** The clock; tests move it. */
  now: () => Date;
  /** Names of the scheduled tasks running in this process (see tasks/schedule.ts). */
  runningTasks: Set<string>;
  /** Background console actions with their progress (see lib/admin/jobs.ts). */
  jobs: JobRegistry;
  /** The admin-login backstop: until when every attempt is slowed (see lib/auth/admin-login.ts). */
  adminLoginBackstop: AdminLoginBackstop;
  /** The published sheet last read by the editor's comparisons (see lib/store/published.ts). */
  keptPublishedSheet: KeptPublishedSheet;
  /** The last comparison of the working sheet with the published one (see lib/admin/drafts.ts). */
  keptDraftComparison: KeptComparison;
  /** IPs whose admin credentials are over their limit, paced to one comparison a second (see lib/auth/admin-credential-limit.ts). */
  adminOverLimit: OverLimitTable;
  /** The edition windows set in the console, kept in step with KV (see lib/site/edition-settings.ts). */
  editions: KeptEditions;
  /** The spreadsheet service account's parsed keys and access tokens (see lib/spreadsheet-import/service-account.ts). */
  sheetTokens: SheetTokenCache;
  /** Registers work to finish before the database closes. */
  onShutdown(hook: ShutdownHook): void;
  /** Runs the shutdown hooks once, then closes the database. */
  shutdown(timeoutSeconds?: number): Promise<void>;
}

export interface BuildDepsOptions {
  log?: Logger;
  database?: Database;
  now?: () => Date;
  /** Skip migrations (the test harness migrates once per process). */
  skipMigrations?: boolean;
  /** False when the database is shared and must stay open after shutdown (tests). */
  ownsDatabase?: boolean;
  /** Tuning of the tracking queues and limiter (tests shrink them). */
  tracking?: TrackingOptions;
}

/** The process logger for a config: JSON lines except in development. */
export function loggerFor(config: Pick<Config, "nodeEnv" | "logLevel">): Logger {
  return createLogger({ mode: config.nodeEnv === "development" ? "development" : "json", minLevel: config.logLevel });
}

/** Opens the database (migrated) and wires the shared services. */
export async function buildDeps(config: Config, options: BuildDepsOptions = {}): Promise<Deps> {
  const log = options.log ?? loggerFor(config);
  const now = options.now ?? (() => new Date());
  const database =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.dataMode === "test" ? undefined : config.dataDir, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata) }));
  if (!options.skipMigrations) await migrateDatabase(database);

  const hooks: ShutdownHook[] = [];
  let shuttingDown: Promise<void> | undefined;
  const kv = createKv(database.db);
  const invalidation = createInvalidationBus((error) => log.error("cache", "Invalidation listener failed", undefined, error));
  const renderCache = createRenderCache({ log, now: () => now().getTime() });
  // A read reused by render misses ends with any invalidation, and the renders made from it are
  // not kept once one came (docs/live-events.md, "What a read costs").
  const events = createEventReader({ config, db: database.db, kv, log, now, generation: () => renderCache.generation() });
  const jobs = createJobRegistry({ now, onError: (kind, error) => log.error("admin-jobs", "Background job failed", { kind }, error) });
  const placementTimer = createBoundaryTimer({ db: database.db, log, now, invalidateLocally: (i) => renderCache.invalidate(i), pages: PLACEMENT_PAGES });
  // Every placement change (here or on another instance) drops /feature-event: re-arm then.
  const editions: KeptEditions = { windows: {} };
  await reloadEditions({ kv, log }, editions);
  const apply = (i: Invalidation) => {
    renderCache.invalidate(i);
    if (i.paths?.includes("/feature-event")) void placementTimer.arm();
    // Another instance saved the windows: read them, then drop what was drawn meanwhile with the old ones.
    if (announcesEditions(i)) void reloadEditions({ kv, log }, editions).then(() => renderCache.invalidate(i));
  };
  const stopInvalidations = await connectInvalidations(database, invalidation, apply, log);
  hooks.push(() => jobs.settle(), () => placementTimer.stop(), stopInvalidations, () => renderCache.settle());
  void placementTimer.arm();
  const signingKey = createSigningKey(config.authSecret);
  // On a Postgres server each tracking queue may use several pooled connections at once (the
  // pool holds 10); the embedded database runs one statement at a time anyway.
  const tracking = createTrackingService({ config, signingKey, log, db: database.db, now, events, invalidation }, { maxInFlight: database.engine === "postgres" ? 4 : 1, ...options.tracking });
  hooks.push(() => tracking.close());
  const outbox = createOutboxWorker({ db: database.db, log, now, config, singleProcess: database.engine !== "postgres" });
  hooks.push(() => outbox.close());
  // The moment the breaker's probe reaches the database again, tracking records and drains at once
  // instead of waiting out its retry back-off (docs/operations.md, "When the database is down").
  database.breaker?.onChange((down) => {
    if (down) log.warn("database", "Database unreachable: new connections fail at once until a background probe reaches it");
    else {
      log.info("database", "Database reachable again");
      tracking.resume();
    }
  });
  const deps: Deps = {
    config,
    log,
    database,
    db: database.db,
    kv,
    events,
    tracking,
    signingKey,
    adminSessionLookup: prepareAdminSessionLookup(database.db),
    limiter: createRateLimiter({ db: database.db, secret: config.authSecret, log, now }),
    invalidation,
    renderCache,
    placementTimer,
    outbox,
    now,
    runningTasks: new Set(),
    jobs,
    adminLoginBackstop: { until: 0 },
    keptPublishedSheet: {},
    keptDraftComparison: {},
    sheetTokens: createSheetTokenCache(),
    adminOverLimit: new Map(),
    editions,
    onShutdown: (hook) => hooks.push(hook),
    shutdown: (timeoutSeconds = 5) => {
      shuttingDown ??= (async () => {
        for (const hook of hooks) {
          try {
            await hook();
          } catch (error) {
            log.error("shutdown", "Shutdown hook failed", undefined, error);
          }
        }
        if (options.ownsDatabase !== false) await database.close(timeoutSeconds);
      })();
      return shuttingDown;
    },
  };
  return deps;
}
