// Applies the drizzle-kit migrations in drizzle/ to either driver, at boot and in the test harness.

import { fileURLToPath } from "node:url";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { Database } from "./client.ts";

/** The folder holding the generated SQL migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** Brings the schema up to date; safe to run on every start. */
export async function migrateDatabase(database: Database, migrationsSchema?: string): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema };
  if (database.engine === "postgres") {
    await migratePostgres(database.db as unknown as PostgresJsDatabase, config);
  } else {
    await migratePglite(database.db as unknown as PgliteDatabase, config);
  }
}
