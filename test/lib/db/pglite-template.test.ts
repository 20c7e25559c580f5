// The embedded database template: made once (a migrated PGlite data folder), then copied into each
// new DATA_DIR. These tests always use the embedded engine: the template exists only for it.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../src/lib/db/client.ts";
import { MIGRATIONS_FOLDER } from "../../../src/lib/db/migrate.ts";
import { buildPgliteTemplate, buildSeededPgliteTemplate, copyPgliteTemplate, findSeededTemplate, hasPgliteTemplate } from "../../../src/lib/db/pglite-template.ts";
import { seedStoreIfEmpty, templateSeed } from "../../../src/lib/events/pipeline.ts";
import { findStoreMeta, readStoreSheet } from "../../../src/lib/store/store.ts";
import { readPublishedSheet } from "../../../src/lib/store/published.ts";
import { loadConfig } from "../../../src/lib/config.ts";
import { createLogger } from "../../../src/lib/logger.ts";
import { testEnv } from "../../helpers/app.ts";

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

describe("seeded PGlite template", () => {
  const csv = readFileSync(join(import.meta.dir, "../../../data/events.csv"), "utf8");
  const config = loadConfig(testEnv({ DATA_MODE: "remote" }));
  const now = new Date("2026-06-20T08:00:00Z");

  /** A first start's seed step on a new DATA_DIR filled from `from`; what it logged and what the store holds after it. */
  async function firstStart(name: string, from: string, fromTemplate?: { rows: number; generatedKeys: number }) {
    const dataDir = join(root, name);
    const database = await openDatabase({ dataDir, fillDataDir: (pgdata) => copyPgliteTemplate(pgdata, from) });
    const lines: string[] = [];
    const log = createLogger({ mode: "json", write: (_level, line) => lines.push(line) });
    try {
      const before = await readPublishedSheet(database.db);
      const seeded = await seedStoreIfEmpty({ config, db: database.db, log, now: () => now }, fromTemplate);
      return { seeded, lines, stampBefore: before?.stamp, meta: await findStoreMeta(database.db), sheet: await readStoreSheet(database.db), published: await readPublishedSheet(database.db) };
    } finally {
      await database.close();
    }
  }

  test("is made from a CSV and found for that very CSV only; making another replaces it", async () => {
    const path = await buildSeededPgliteTemplate(csv, templateSeed(csv).seed, template);
    expect(path).toBeDefined();
    expect(findSeededTemplate(csv, template)).toEqual({ path: path!, summary: { rows: 81, generatedKeys: 81 } });
    const edited = csv.replace("Riverside Soca Warm-Up", "Riverside Soca Night");
    expect(findSeededTemplate(edited, template)).toBeUndefined();
    const other = await buildSeededPgliteTemplate(edited, templateSeed(edited).seed, template);
    expect(findSeededTemplate(edited, template)?.path).toBe(other!);
    expect(findSeededTemplate(csv, template)).toBeUndefined();
    expect(existsSync(path!)).toBe(false);
    // Back to the sample CSV for the test below.
    await buildSeededPgliteTemplate(csv, templateSeed(csv).seed, template);
  }, 120_000);

  test("a CSV that is not a valid sheet makes none (the first start then seeds, and warns, itself)", async () => {
    expect(await buildSeededPgliteTemplate("not,a\nsheet\n", templateSeed("not,a\nsheet\n").seed, template)).toBeUndefined();
    expect(findSeededTemplate("not,a\nsheet\n", template)).toBeUndefined();
    expect(findSeededTemplate(csv, template)).toBeDefined();
  }, 60_000);

  test("a first start from its copy ends where a first start seeding itself ends, dated now, with a publish stamp of its own", async () => {
    const seededTemplate = findSeededTemplate(csv, template)!;
    const copied = await firstStart("seeded-copy", seededTemplate.path, seededTemplate.summary);
    const itself = await firstStart("seeding-itself", template);
    expect(copied.seeded).toBe(81);
    expect(itself.seeded).toBe(81);
    const seedLine = (lines: string[]) => JSON.parse(lines.find((l) => l.includes("Seeded the event store"))!);
    expect(seedLine(copied.lines)).toMatchObject({ message: "Seeded the event store from the local CSV", context: { rows: 81, generatedKeys: 81, fromTemplate: true } });
    expect(seedLine(itself.lines)).toEqual(expect.objectContaining({ message: "Seeded the event store from the local CSV", context: { rows: 81, generatedKeys: 81 } }));
    expect(copied.meta).toEqual(itself.meta!);
    expect(copied.meta!.updatedAt).toEqual(now);
    // Row ids are random in both; the rows, their order and their cells are the same.
    const cells = (sheet: typeof copied.sheet) => sheet!.rows.map((r) => r.values);
    expect(copied.sheet!.columns).toEqual(itself.sheet!.columns);
    expect(cells(copied.sheet)).toEqual(cells(itself.sheet));
    const published = (p: typeof copied.published) => ({ ...p!, stamp: undefined, rows: p!.rows.map((r) => r.values), states: [...p!.states.values()] });
    expect(published(copied.published)).toEqual(published(itself.published));
    expect(copied.published!.publishedAt).toEqual(now);
    expect(copied.published!.stamp).not.toBe(copied.stampBefore!);
  }, 60_000);
});
