// A ready-made embedded database: a migrated, empty PGlite data directory dumped once per machine
// (at install, or in the background after the first start that lacked one), so a fresh DATA_DIR is
// loaded from it in well under a second instead of running initdb for several seconds.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { wrapPglite } from "./client.ts";
import { migrateDatabase } from "./migrate.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The installed PGlite version: a template only loads into the version that made it. */
function pgliteVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/**
 * Where the template lives: the package cache folder of this checkout, rebuilt by every install.
 * Migrations added after it was made are applied on top at start, like on any existing database.
 */
export function pgliteTemplatePath(): string {
  return join(ROOT, "node_modules/.cache/finder", `pglite-${pgliteVersion()}.tar.gz`);
}

/** The template's bytes, or undefined when none has been made on this machine yet. */
export function readPgliteTemplate(path = pgliteTemplatePath()): Blob | undefined {
  if (!existsSync(path)) return undefined;
  return new Blob([readFileSync(path)]);
}

/** Makes the template: an in-memory PGlite, migrated, dumped; written atomically. */
export async function buildPgliteTemplate(path = pgliteTemplatePath()): Promise<string> {
  const instance = await PGlite.create();
  const database = wrapPglite(instance);
  try {
    await migrateDatabase(database);
    const dump = await instance.dumpDataDir("gzip");
    mkdirSync(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, path);
    return path;
  } finally {
    await database.close();
  }
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
  if (existsSync(path)) return;
  buildPgliteTemplate(path).then(
    () => log.info("startup", "Embedded database template made for faster first starts"),
    (error) => log.warn("startup", "Could not make the embedded database template", { reason: error instanceof Error ? error.message : String(error) }),
  );
}
