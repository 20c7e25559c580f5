// Applies the drizzle-kit migrations in drizzle/ to either driver, at boot and in the test harness.

import { fileURLToPath } from "node:url";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { Database } from "./client.ts";

/** The folder holding the generated SQL migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** Brings the schema up to date; safe to run on every start. */
export async function migrateDatabase(database: Database, migrationsSchema?: string): Promise<void> {
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
