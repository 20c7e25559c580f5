// The embedded database template: made once (a migrated PGlite data folder), then copied into each
// new DATA_DIR. These tests always use the embedded engine: the template exists only for it.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../src/lib/db/client.ts";
import { MIGRATIONS_FOLDER } from "../../../src/lib/db/migrate.ts";
import { buildPgliteTemplate, copyPgliteTemplate, hasPgliteTemplate } from "../../../src/lib/db/pglite-template.ts";

const root = mkdtempSync(join(tmpdir(), "finder-template-"));
// Two folder levels that do not exist yet, as node_modules/.cache/finder on a fresh install.
const template = join(root, "cache", "finder", "template");
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: unknown[] };

async function appliedMigrations(dataDir: string): Promise<number> {
  const database = await openDatabase({ dataDir });
  try {
    const rows = await database.query<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
    return rows[0]!.count;
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  await buildPgliteTemplate(template);
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("PGlite template", () => {
  test("is a complete, migrated data folder with no partial copy left beside it", () => {
    expect(hasPgliteTemplate(template)).toBe(true);
    expect(readdirSync(join(root, "cache", "finder"))).toEqual(["template"]);
  });

  test("a new DATA_DIR is filled from it and opens with every migration applied", async () => {
    const dataDir = join(root, "fresh");
    let filled = 0;
    const database = await openDatabase({ dataDir, fillDataDir: (pgdata) => (filled++, copyPgliteTemplate(pgdata, template)) });
    await database.close();
    expect(filled).toBe(1);
    expect(await appliedMigrations(dataDir)).toBe(journal.entries.length);
    expect(readdirSync(dataDir)).toEqual(["pgdata"]);
  });

  test("holds only the database the service uses (fewer files for a first start to write)", async () => {
    const dataDir = join(root, "databases");
    const database = await openDatabase({ dataDir, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata, template) });
    const rows = await database.query<{ datname: string }>(sql`select datname from pg_database order by datname`);
    const current = await database.query<{ name: string }>(sql`select current_database() as name`);
    await database.close();
    expect(rows.map((r) => r.datname)).toEqual(["postgres"]);
    expect(current).toEqual([{ name: "postgres" }]);
  });

  test("an existing DATA_DIR is opened as it is, never refilled", async () => {
    const dataDir = join(root, "existing");
    const first = await openDatabase({ dataDir, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata, template) });
    await first.query(sql`create table kept (id int)`);
    await first.close();
    let filled = 0;
    const second = await openDatabase({ dataDir, fillDataDir: async () => (filled++, false) });
    const rows = await second.query(sql`select count(*)::int as count from kept`);
    await second.close();
    expect(filled).toBe(0);
    expect(rows).toEqual([{ count: 0 }]);
  });

  test("writes to a copy never reach the template", async () => {
    const dataDir = join(root, "writer");
    const database = await openDatabase({ dataDir, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata, template) });
    await database.query(sql`create table only_in_copy (id int)`);
    await database.close();
    const other = join(root, "other");
    const copy = await openDatabase({ dataDir: other, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata, template) });
    const rows = await copy.query<{ name: string | null }>(sql`select to_regclass('only_in_copy')::text as name`);
    await copy.close();
    expect(rows).toEqual([{ name: null }]);
  });

  test("a folder that already holds files, or a missing template, is left to PGlite", async () => {
    const busy = join(root, "busy", "pgdata");
    mkdirSync(busy, { recursive: true });
    writeFileSync(join(busy, "note.txt"), "mine");
    expect(await copyPgliteTemplate(busy, template)).toBe(false);
    expect(readdirSync(busy)).toEqual(["note.txt"]);
    const target = join(root, "none", "pgdata");
    expect(await copyPgliteTemplate(target, join(root, "no-template"))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});
