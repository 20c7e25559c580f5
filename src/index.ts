// Process entry: config → deps (database + migrations) → app.listen → scheduled tasks; clean stop on signals.
// Only the light modules below load first: on the embedded database, PGlite's files are read and
// compiled at once on a worker thread, and a fresh DATA_DIR gets its copy of the database template
// while this thread loads the rest of the server (docs/operations.md, "Startup and shutdown").

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig, readyLine, type Config } from "./lib/config.ts";
import { copyPgliteTemplate, ensurePgliteTemplate, findSeededTemplate, type SeededTemplate } from "./lib/db/pglite-template.ts";
import { pgliteDataFolder } from "./lib/db/pglite-boot.ts";
import { loadPgliteFiles } from "./lib/db/pglite-boot.ts";
import { startupFailureText } from "./lib/db/errors.ts";

/** The local CSV's text, or undefined when it cannot be read (the seed then warns about it). */
function readLocalCsv(config: Config): string | undefined {
  try {
    return readFileSync(config.localEventsCsv, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The seeded template a new DATA_DIR can start from: only in remote mode (the mode that seeds),
 * and only one made from this very CSV with every migration (its name says which).
 */
function seededTemplateFor(config: Config): SeededTemplate | undefined {
  if (config.dataMode !== "remote") return undefined;
  const csv = readLocalCsv(config);
  return csv === undefined ? undefined : findSeededTemplate(csv);
}

/**
 * Opens the embedded database in DATA_DIR. A new one gets its template copy started at once,
 * beside the loading of the database client; PGlite opens once both are done. `seeded` is what
 * the seeded template's seed wrote when that was the copy made.
 */
async function openEmbedded(config: Config) {
  const pgdata = pgliteDataFolder(config.dataDir);
  let filling: Promise<boolean> | undefined;
  let template: SeededTemplate | undefined;
  if (!existsSync(join(pgdata, "PG_VERSION"))) {
    mkdirSync(config.dataDir, { recursive: true });
    template = seededTemplateFor(config);
    filling = copyPgliteTemplate(pgdata, template?.path);
  }
  const [{ openDatabase }, filled] = await Promise.all([import("./lib/db/client.ts"), filling]);
  const database = await openDatabase({ dataDir: config.dataDir, fillDataDir: (folder) => copyPgliteTemplate(folder) });
  return { database, seeded: filled ? template?.summary : undefined };
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`[finder] Startup failed: ${error.problems.length} configuration problem(s):\n- ${error.problems.join("\n- ")}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Where the start's time goes, logged on the ready line (docs/operations.md, "Startup and
  // shutdown"): milliseconds since the process started (Bun's time origin) at the end of each step.
  const boot: Record<string, number> = { config: Math.round(performance.now()) };
  const mark = (step: string) => (boot[step] = Math.round(performance.now()));
  const embedded = !config.databaseUrl && config.dataMode !== "test";
  // The embedded database opens first (its compile and a template copy, then PGlite's own start),
  // and the rest of the server loads meanwhile.
  if (embedded) void loadPgliteFiles();
  const opening = embedded ? openEmbedded(config) : undefined;
  // Awaited below; a failure while the modules load is reported there, not as an unhandled rejection.
  opening?.catch(() => {});
  opening?.then(() => mark("databaseOpen"), () => {});
  const [{ buildDeps, loggerFor }, { createApp }, { MAX_BODY_BYTES }, { seedStoreIfEmpty, templateSeed }, { spreadsheetStatus }, { runScheduledTask, scheduledTask, schedulePlugin, stopSchedule }] =
    await Promise.all([import("./deps.ts"), import("./app.ts"), import("./lib/http/responses.ts"), import("./lib/events/pipeline.ts"), import("./lib/spreadsheet-import/import.ts"), import("./tasks/schedule.ts")]);
  mark("modules");
  const log = loggerFor(config);
  if (config.authSecretGenerated) log.warn("config", "AUTH_SECRET not set; using a generated development secret kept in DATA_DIR");

  const opened = await opening;
  const deps = await buildDeps(config, { log, database: opened?.database });
  mark("migrated");
  await seedStoreIfEmpty(deps, opened?.seeded);
  mark("seeded");
  const sheet = spreadsheetStatus(config, log);
  if (!sheet.configured) log.warn("sheets", "Spreadsheet source is not configured: preview and import are unavailable until REMOTE_CSV_URL or SHEET_ID is set");
  const app = createApp(deps);
  if (config.cronEnabled) {
    const schedule = schedulePlugin(deps);
    app.use(schedule);
    deps.onShutdown(() => stopSchedule(schedule));
    // Live reads never geocode: warm the coordinate cache once at boot instead of waiting for :30.
    const warm = scheduledTask("warm-coordinates");
    if (warm) void runScheduledTask(deps, warm).catch((error) => log.warn("geocoding", "Boot coordinate warm-up failed", undefined, error));
  }
  // One process per port: without reusePort a second instance on a busy port fails here instead
  // of silently sharing the port (and its traffic) with the first.
  try {
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: MAX_BODY_BYTES, reusePort: false });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === "EADDRINUSE" || /in use/i.test(String((error as Error).message)) ? "is already in use (is another finder instance running?)" : `cannot be opened (${code ?? (error as Error).message})`;
    process.stderr.write(`[finder] Startup failed: port ${config.port} on ${config.host} ${reason}\n`);
    await deps.shutdown(2).catch(() => {});
    process.exit(1);
  }

  log.info(
    "startup",
    readyLine(config, app.server?.port ?? config.port, deps.database.engine),
    { port: app.server?.port, database: deps.database.engine, bootMs: { ...boot, listening: Math.round(performance.now()) } },
  );

  if (embedded) {
    ensurePgliteTemplate(log, () => {
      const csv = config.dataMode === "remote" ? readLocalCsv(config) : undefined;
      return csv === undefined ? undefined : templateSeed(csv);
    });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutdown", "Stopping", { signal });
    const timer = setTimeout(() => {
      log.error("shutdown", "Shutdown took too long; exiting");
      process.exit(1);
    }, 15000);
    try {
      // Stop accepting connections and let in-flight requests finish.
      await app.stop(false);
      await deps.shutdown(5);
      clearTimeout(timer);
      log.info("shutdown", "Stopped cleanly");
      process.exit(0);
    } catch (error) {
      log.error("shutdown", "Shutdown failed", undefined, error);
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(`[finder] Startup failed: ${startupFailureText(error)}\n`);
  process.exit(1);
});
