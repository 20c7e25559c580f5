// A ready-made embedded database: a migrated, empty PGlite data directory made once per machine
// (at install, or in the background after the first start that lacked one). A fresh DATA_DIR gets
// a plain file copy of it, which takes a fraction of a second, instead of initdb (several seconds)
// or unpacking a dump through PGlite's in-process file system (over a second).

import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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
 * Makes the template: a PGlite data folder created beside it, migrated, stripped of the unused
 * databases, closed, renamed into place.
 */
export async function buildPgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const partial = `${path}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // A fresh install has no package cache folder yet, and PGlite makes only the last folder level.
  mkdirSync(dirname(path), { recursive: true });
  try {
    // Loaded here only: a start that copies the template must not pay for loading these first.
    const [{ PGlite }, { wrapPglite }, { migrateDatabase }] = await Promise.all([import("@electric-sql/pglite"), import("./client.ts"), import("./migrate.ts")]);
    const instance = await PGlite.create({ dataDir: partial });
    const database = wrapPglite(instance);
    try {
      await migrateDatabase(database);
      for (const name of UNUSED_DATABASES) {
        // DROP DATABASE runs on its own, outside any transaction block.
        await instance.exec(`alter database ${name} is_template false`);
        await instance.exec(`drop database ${name}`);
      }
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
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  // The compressed dump earlier versions kept beside it is no longer read.
  rmSync(`${path}.tar.gz`, { force: true });
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

/**
 * After a start on the embedded database, makes the template in the background when this machine
 * has none yet (an install that skipped its scripts), so the next fresh DATA_DIR starts fast.
 */
export function ensurePgliteTemplate(log: TemplateLog, path = pgliteTemplatePath()): void {
  if (hasPgliteTemplate(path)) return;
  buildPgliteTemplate(path).then(
    () => log.info("startup", "Embedded database template made for faster first starts"),
    (error) => log.warn("startup", "Could not make the embedded database template", { reason: error instanceof Error ? error.message : String(error) }),
  );
}
