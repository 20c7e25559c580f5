// A ready-made embedded database: a migrated, empty PGlite data directory made once per machine
// (at install, or in the background after the first start that lacked one). A fresh DATA_DIR gets
// a plain file copy of it, which takes a fraction of a second, instead of initdb (several seconds)
// or unpacking a dump through PGlite's in-process file system (over a second).
// Beside it, a seeded template: the same database after the first start's seed from the local
// CSV, so a first start whose CSV and migrations are the ones it was made from skips the seed.

import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type { Db } from "./client.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The installed PGlite version: a template only opens in the version that made it. */
function pgliteVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/**
 * Where the template lives: a folder in the package cache of this checkout, rebuilt by every install.
 * Migrations added after it was made are applied on top at start, like on any existing database.
 */
export function pgliteTemplatePath(): string {
  return join(ROOT, "node_modules/.cache/finder", `pglite-${pgliteVersion()}`);
}

/** True when a complete template is in place (it is renamed into place only once made). */
export function hasPgliteTemplate(path = pgliteTemplatePath()): boolean {
  return existsSync(join(path, "PG_VERSION"));
}

/**
 * The databases initdb makes besides `postgres`, which the service uses. PGlite serves that one
 * database only (there is no CREATE DATABASE to copy them for), and they hold more than half of
 * the template's files: a first start creates every file of its copy, one by one.
 */
const UNUSED_DATABASES = ["template0", "template1"];

/**
 * Makes a template folder: PGlite opened on a folder beside it (empty, or a copy of `from`),
 * `fill` run, a checkpoint, closed, renamed into place. False from `fill` leaves nothing in place.
 */
async function buildTemplateFolder(path: string, fill: (instance: PGlite, db: Db) => Promise<boolean>, from?: string): Promise<boolean> {
  const partial = `${path}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // A fresh install has no package cache folder yet, and PGlite makes only the last folder level.
  mkdirSync(dirname(path), { recursive: true });
  try {
    if (from) cpSync(from, partial, { recursive: true });
    // Loaded here only: a start that copies the template must not pay for loading these first.
    const [{ PGlite }, { wrapPglite }] = await Promise.all([import("@electric-sql/pglite"), import("./client.ts")]);
    const instance = await PGlite.create({ dataDir: partial });
    const database = wrapPglite(instance);
    try {
      if (!(await fill(instance, database.db))) return false;
      await instance.exec("checkpoint");
    } finally {
      await database.close();
    }
    try {
      rmSync(path, { recursive: true, force: true });
      renameSync(partial, path);
    } catch (error) {
      // Another process may have put its own template in place first: that one serves as well.
      if (!hasPgliteTemplate(path)) throw error;
    }
    return true;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Makes the template: a PGlite data folder created beside it, migrated, stripped of the unused
 * databases, closed, renamed into place.
 */
export async function buildPgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const { migrateDatabase } = await import("./migrate.ts");
  const { wrapPglite } = await import("./client.ts");
  await buildTemplateFolder(path, async (instance) => {
    await migrateDatabase(wrapPglite(instance));
    for (const name of UNUSED_DATABASES) {
      // DROP DATABASE runs on its own, outside any transaction block.
      await instance.exec(`alter database ${name} is_template false`);
      await instance.exec(`drop database ${name}`);
    }
    return true;
  });
  // The compressed dump earlier versions kept beside it is no longer read.
  rmSync(`${path}.tar.gz`, { force: true });
  return path;
}

/** What the seed wrote, for the first start's log line (the start that copies it seeds nothing itself). */
export interface SeedSummary {
  rows: number;
  generatedKeys: number;
}

/** The seeded template that fits a CSV, with what its seed wrote. */
export interface SeededTemplate {
  path: string;
  summary: SeedSummary;
}

const SEEDED_PREFIX = "-seeded-";

/**
 * Where the seeded template made from this CSV lives. Its name holds a digest of the CSV and of
 * the migration journal: a first start copies it only when its seed input is the same CSV and it
 * has every migration (one made before a newer migration would have the seed written under an
 * older schema, so that start seeds itself instead).
 */
export function seededTemplatePath(csv: string, plain = pgliteTemplatePath()): string {
  const journal = readFileSync(join(ROOT, "drizzle/meta/_journal.json"), "utf8");
  const digest = createHash("sha256").update(journal).update("\0").update(csv).digest("hex").slice(0, 16);
  return `${plain}${SEEDED_PREFIX}${digest}`;
}

/** The seeded template for this CSV when one is in place (folder and summary), else undefined. */
export function findSeededTemplate(csv: string, plain = pgliteTemplatePath()): SeededTemplate | undefined {
  const path = seededTemplatePath(csv, plain);
  if (!hasPgliteTemplate(path)) return undefined;
  try {
    return { path, summary: JSON.parse(readFileSync(`${path}.json`, "utf8")) as SeedSummary };
  } catch {
    return undefined;
  }
}

/**
 * Makes the seeded template for this CSV: a copy of the plain template with `seed` run on it (the
 * first start's own seed). Its summary is written before the folder is renamed into place, so a
 * folder in place always has one. Once it is in place, seeded templates of other CSVs or
 * migrations are removed. Undefined when there is no plain template or the seed wrote nothing (an invalid CSV: the first
 * start then seeds, and warns, itself).
 */
export async function buildSeededPgliteTemplate(csv: string, seed: (db: Db) => Promise<SeedSummary | undefined>, plain = pgliteTemplatePath()): Promise<string | undefined> {
  if (!hasPgliteTemplate(plain)) return undefined;
  const path = seededTemplatePath(csv, plain);
  const made = await buildTemplateFolder(
    path,
    async (_instance, db) => {
      const summary = await seed(db);
      if (summary) writeFileSync(`${path}.json`, JSON.stringify(summary));
      return summary !== undefined;
    },
    plain,
  );
  if (!made) {
    rmSync(`${path}.json`, { force: true });
    return undefined;
  }
  const prefix = `${basename(plain)}${SEEDED_PREFIX}`;
  for (const name of readdirSync(dirname(plain))) {
    if (name.startsWith(prefix) && !name.startsWith(basename(path))) rmSync(join(dirname(plain), name), { recursive: true, force: true });
  }
  return path;
}

/**
 * Fills a new PGlite data folder with a copy of the template; false when there is no template or
 * the folder already holds files (PGlite then opens or creates the database itself). The copy is
 * made beside the folder and renamed, so a start stopped half-way never leaves a partial database.
 *
 * The copy itself is synchronous: the process entry starts it while the rest of the server loads,
 * and on the main thread it fits in the time that thread waits anyway for PGlite's module to
 * compile on its worker. Measured on two cores, it beat both the alternatives: fs.promises.cp
 * spent about 0.3 s of CPU going file by file through promises, and the same synchronous copy on
 * a worker thread of its own, a third busy thread, slowed the compile a start waits for (a fresh
 * start 0.1 s slower).
 */
export async function copyPgliteTemplate(pgdata: string, path = pgliteTemplatePath()): Promise<boolean> {
  if (!hasPgliteTemplate(path)) return false;
  if (existsSync(pgdata) && (await readdir(pgdata)).length > 0) return false;
  const partial = `${pgdata}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  try {
    cpSync(path, partial, { recursive: true });
    await rm(pgdata, { recursive: true, force: true });
    await rename(partial, pgdata);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return true;
}

/** The two log lines the template writes (the process logger fits; db/ does not import it). */
export interface TemplateLog {
  info(scope: string, message: string): void;
  warn(scope: string, message: string, context?: Record<string, unknown>): void;
}

/** The CSV a seeded template is made from, and the first start's seed to run on it. */
export interface TemplateSeed {
  csv: string;
  seed: (db: Db) => Promise<SeedSummary | undefined>;
}

/**
 * After a start on the embedded database, makes the template in the background when this machine
 * has none yet (an install that skipped its scripts), so the next fresh DATA_DIR starts fast; then
 * the seeded one when this start seeds (remote mode).
 */
export function ensurePgliteTemplate(log: TemplateLog, seeded?: () => TemplateSeed | undefined, path = pgliteTemplatePath()): void {
  if (hasPgliteTemplate(path)) return;
  const made = async () => {
    await buildPgliteTemplate(path);
    const seed = seeded?.();
    if (seed) await buildSeededPgliteTemplate(seed.csv, seed.seed, path);
  };
  made().then(
    () => log.info("startup", "Embedded database template made for faster first starts"),
    (error) => log.warn("startup", "Could not make the embedded database template", { reason: error instanceof Error ? error.message : String(error) }),
  );
}
