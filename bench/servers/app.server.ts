// The finder app in a process of its own for the HTTP benchmarks, on a free loopback port.
// Usage: bun bench/servers/app.server.ts '<setup json>' where setup is
//   { "dataMode": "test" | "remote", "seed": "sample" | <rows>, "env": { ... }, "securityHeaders": false, "at": "<ISO instant>", "listRoutes": true }
// (`securityHeaders: false` only for the hardening bench's baseline; `at` stops the app's clock at
// that instant, e.g. festival night for the first-load bench).
// It prints `READY <port>` once the app answers, and stops on SIGTERM.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/lib/config.ts";
import { buildDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { createMemoryLogger } from "../../src/lib/logger.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { bigSheet } from "../fixtures.ts";

interface Setup {
  dataMode?: "test" | "remote";
  seed?: "sample" | number;
  env?: Record<string, string>;
  securityHeaders?: boolean;
  at?: string;
  listRoutes?: boolean;
}

const setup = JSON.parse(process.argv[2] ?? "{}") as Setup;
const dataDir = mkdtempSync(join(tmpdir(), "finder-bench-app-"));
const config = loadConfig({
  NODE_ENV: "test",
  DATA_MODE: setup.dataMode ?? "test",
  AUTH_SECRET: "b".repeat(40),
  CRON_ENABLED: "false",
  DATA_DIR: dataDir,
  LOG_LEVEL: "error",
  ...setup.env,
});
const at = setup.at ? new Date(setup.at) : undefined;
const deps = await buildDeps(config, { log: createMemoryLogger(), now: at ? () => new Date(at) : undefined });
if (setup.seed !== undefined) {
  const csv = setup.seed === "sample" ? readFileSync(config.localEventsCsv, "utf8") : bigSheet(setup.seed);
  const saved = await saveStoreSheet(deps.db, csv, { updatedBy: "system", origin: "manual", now: at ?? new Date() });
  if (!saved.ok) throw new Error(saved.error);
}
const app = createApp(deps, { securityHeaders: setup.securityHeaders }).listen({ port: 0, hostname: "127.0.0.1" });
// `listRoutes`: the READY line also names every registered route (the fuzz bench walks them).
const routes = setup.listRoutes ? (app as unknown as { routes: { method: string; path: string }[] }).routes.map((r) => ({ method: r.method, path: r.path })) : undefined;
console.log(`READY ${app.server!.port}${routes ? ` ${JSON.stringify({ routes })}` : ""}`);

process.on("SIGTERM", async () => {
  await app.stop(true);
  await deps.shutdown();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
