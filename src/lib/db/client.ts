// Database connection: postgres.js when a connection string is configured, embedded PGlite otherwise.
// Both drivers get the same Drizzle schema, the same migrations and the same SQL.

import { join } from "node:path";
import { existsSync, mkdirSync } from "node:fs";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import * as schema from "./schema/index.ts";
import { createPglite, pgliteDataFolder } from "./pglite-boot.ts";
import { createDatabaseBreaker, DB_CONNECT_DEADLINE_MS, type DatabaseBreaker } from "./breaker.ts";

export type Schema = typeof schema;
/** The Drizzle database handle shared by both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbEngine = "postgres" | "pglite";

/** An open database with its engine name and a bounded close. */
export interface Database {
  db: Db;
  engine: DbEngine;
  /** Runs raw SQL and returns the rows, whatever the driver. */
  query<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /** Closes the connection, waiting at most `timeoutSeconds` for in-flight queries. */
  close(timeoutSeconds?: number): Promise<void>;
  /** Postgres server only: the raw postgres.js client (LISTEN/NOTIFY). */
  pg?: postgres.Sql;
  /** PGlite only: the embedded instance. */
  pglite?: PGlite;
  /** Postgres server only: the breaker every connection goes through (open while the server is down). */
  breaker?: DatabaseBreaker;
}

export interface OpenDatabaseOptions {
  url?: string;
  /** Folder for PGlite files; omitted means in-memory. */
  dataDir?: string;
  /** Fills a new, empty PGlite data folder from a ready-made, migrated one (skips initdb); false when it cannot. */
  fillDataDir?: (pgdata: string) => Promise<boolean>;
  /** Search path schema for the postgres.js driver (tests isolate runs in their own schema). */
  schemaName?: string;
  maxConnections?: number;
  /** Seconds to wait for a connection before the query fails (default DB_CONNECT_TIMEOUT_SECONDS). */
  connectTimeoutSeconds?: number;
  /** Server-side limit of one statement, in ms (default DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
}

/** A Postgres server that has not finished a connection's start-up within 5 s counts as down (the TCP connect itself gets DB_CONNECT_DEADLINE_MS). */
export const DB_CONNECT_TIMEOUT_SECONDS = 5;
/** No statement may run longer than 30 s (the biggest exports and backups take well under 1 s here). */
export const DB_STATEMENT_TIMEOUT_MS = 30_000;

/** The rows of a raw `execute` result: an array on the server driver, `{ rows }` on PGlite. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Opens the configured database. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    // The server driver loads only here: an embedded start never needs it.
    const [{ default: postgres }, { drizzle: drizzlePostgres }] = await Promise.all([import("postgres"), import("drizzle-orm/postgres-js")]);
    const breaker = createDatabaseBreaker();
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // Fail fast when the server is down or hangs, instead of holding requests for 30 s.
      connect_timeout: options.connectTimeoutSeconds ?? Math.min(DB_CONNECT_TIMEOUT_SECONDS, DB_CONNECT_DEADLINE_MS / 1000 + 1),
      // Every connection goes through the breaker, which fails at once while the server is known
      // to be down; the driver's own reconnect back-off (up to 20 s, during which queries just
      // wait) is off, since the breaker's background probe decides when to try again.
      // (`socket` is a documented option of postgres.js that its type declarations leave out.)
      ...({
        socket: (settings: { host: string[]; port: number[]; path?: string | false }) =>
          breaker.connect(settings.path ? { path: settings.path } : { host: settings.host[0], port: settings.port[0] }),
      } as object),
      backoff: () => 0,
      connection: {
        statement_timeout: options.statementTimeoutMs ?? DB_STATEMENT_TIMEOUT_MS,
        ...(options.schemaName ? { search_path: options.schemaName } : {}),
      },
      prepare: true,
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    return {
      db,
      engine: "postgres",
      pg: client,
      breaker,
      query: async <T>(statement: SQL) => rowsOf<T>(await db.execute(statement)),
      close: (timeoutSeconds = 5) => {
        breaker.stop();
        return client.end({ timeout: timeoutSeconds });
      },
    };
  }
  let dataDir: string | undefined;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    dataDir = pgliteDataFolder(options.dataDir);
    if (!existsSync(join(dataDir, "PG_VERSION"))) await options.fillDataDir?.(dataDir);
  }
  return wrapPglite(await createPglite(dataDir));
}

/** Wraps an existing PGlite instance (tests hand each file a migrated copy). */
export function wrapPglite(instance: PGlite): Database {
  const db = drizzlePglite(instance, { schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    engine: "pglite",
    pglite: instance,
    query: async <T>(statement: SQL) => rowsOf<T>(await db.execute(statement)),
    close: async () => {
      if (closed) return;
      closed = true;
      await instance.close();
    },
  };
}

/** True when the database answers a trivial query. */
export async function pingDatabase(database: Database): Promise<boolean> {
  try {
    await database.query(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
