// Applies the drizzle-kit migrations in drizzle/ to either driver, at boot and in the test harness.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { Database } from "./client.ts";

/** The folder holding the generated SQL migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** When the newest migration was generated, from the journal drizzle-kit keeps beside the SQL files. */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

/**
 * True when the database already records the newest migration: the migrator would then apply
 * nothing (it applies the migrations generated after the newest one recorded). False when the
 * bookkeeping table is missing or behind.
 */
async function upToDate(database: Database, migrationsSchema = "drizzle"): Promise<boolean> {
  try {
    const [row] = await database.query<{ newest: string | number | null }>(
      sql`select max(created_at) as newest from ${sql.identifier(migrationsSchema)}.${sql.identifier("__drizzle_migrations")}`,
    );
    return row?.newest != null && Number(row.newest) >= newestMigration();
  } catch {
    return false;
  }
}

/**
 * Brings the schema up to date; safe to run on every start. An up-to-date database (every start
 * but the first after a deploy, and every copy of the template) costs one read instead of the
 * migrator's own checks (reading and hashing every migration file, then four statements).
 */
export async function migrateDatabase(database: Database, migrationsSchema?: string): Promise<void> {
  if (await upToDate(database, migrationsSchema)) return;
  const config = { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema };
  // Each driver's migrator loads with its driver only.
  if (database.engine === "postgres") {
    const { migrate: migratePostgres } = await import("drizzle-orm/postgres-js/migrator");
    await migratePostgres(database.db as unknown as PostgresJsDatabase, config);
  } else {
    const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
    await migratePglite(database.db as unknown as PgliteDatabase, config);
  }
}
