// A ready-made embedded database: a migrated, empty PGlite data directory made once per machine
// (at install, or in the background after the first start that lacked one). A fresh DATA_DIR gets
// a plain file copy of it, which takes a fraction of a second, instead of initdb (several seconds)
// or unpacking a dump through PGlite's in-process file system (over a second).

import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { wrapPglite } from "./client.ts";
import { migrateDatabase } from "./migrate.ts";

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

/** Makes the template: a PGlite data folder created beside it, migrated, closed, renamed into place. */
export async function buildPgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const partial = `${path}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    const database = wrapPglite(await PGlite.create({ dataDir: partial }));
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    rmSync(path, { recursive: true, force: true });
    renameSync(partial, path);
  } catch (error) {
    // Another process may have put its own template in place first: that one serves as well.
    if (!hasPgliteTemplate(path)) throw error;
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
 */
export function copyPgliteTemplate(pgdata: string, path = pgliteTemplatePath()): boolean {
  if (!hasPgliteTemplate(path)) return false;
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return false;
  const partial = `${pgdata}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(path, partial, { recursive: true });
    rmSync(pgdata, { recursive: true, force: true });
    renameSync(partial, pgdata);
  } finally {
    rmSync(partial, { recursive: true, force: true });
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
