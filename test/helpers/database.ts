// One database per test process: in-memory PGlite migrated once, or, with TEST_DATABASE_URL, a
// schema of its own on a real Postgres server (dropped when the run ends). Files reset it.

import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, type Database } from "../../src/lib/db/client.ts";
import { migrateDatabase } from "../../src/lib/db/migrate.ts";

let shared: Promise<Database> | undefined;
let schemaName: string | undefined;

/** The server URL when the suite runs against real Postgres. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

async function create(): Promise<Database> {
  if (!TEST_DATABASE_URL) {
    const database = await openDatabase({});
    await migrateDatabase(database);
    return database;
  }
  schemaName = `finder_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create schema "${schemaName}"`);
  await admin.end({ timeout: 5 });
  const database = await openDatabase({ url: TEST_DATABASE_URL, schemaName, maxConnections: 10 });
  await migrateDatabase(database, schemaName);
  return database;
}

/** The shared, migrated database of this test process. */
export function sharedDatabase(): Promise<Database> {
  shared ??= create();
  return shared;
}

/** Empties every table (migrations bookkeeping excepted). */
export async function resetDatabase(database: Database): Promise<void> {
  const rows = await database.query<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '%drizzle%'`,
  );
  if (rows.length === 0) return;
  const list = rows.map((r) => `"${r.table_name}"`).join(", ");
  await database.query(sql.raw(`truncate ${list} restart identity cascade`));
}

/** Closes the shared database and drops the run's schema on a Postgres server. */
export async function disposeSharedDatabase(): Promise<void> {
  if (!shared) return;
  const database = await shared;
  shared = undefined;
  await database.close(5);
  if (TEST_DATABASE_URL && schemaName) {
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop schema if exists "${schemaName}" cascade`);
    await admin.end({ timeout: 5 });
  }
}
