// /api/health through the real app server vs a bare Bun.serve returning the same bytes.

import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { load, report } from "./lib.ts";

export async function benchHealth(): Promise<void> {
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false" });
  const deps = await buildDeps(config, { log: createMemoryLogger() });
  const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const body = JSON.stringify({ status: "ok" });
  const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(body, { headers: { "content-type": "application/json" } }) });
  const opts = { total: 20000, concurrency: 50, expectStatus: 200 };
  const appUrl = `http://127.0.0.1:${app.server!.port}/api/health`;
  const bareUrl = `http://127.0.0.1:${bare.port}/api/health`;
  await load(() => new Request(appUrl), { ...opts, total: 2000 }); // warm-up
  await load(() => new Request(bareUrl), { ...opts, total: 2000 });
  const baseline = await load(() => new Request(bareUrl), opts);
  const subject = await load(() => new Request(appUrl), opts);
  report("GET /api/health (app vs bare Bun.serve)", subject, baseline);
  bare.stop(true);
  await app.stop(true);
  await deps.shutdown();
}
