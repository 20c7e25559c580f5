// A cached /api/og image (one render, then served from memory behind the per-IP guard) against a
// bare Bun.serve sending the same PNG bytes, measured in the same run; then what one uncached
// render costs.

import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { load, report } from "./lib.ts";

export async function benchOg(): Promise<void> {
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "test", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false" });
  const deps = await buildDeps(config, { log: createMemoryLogger() });
  const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const path = "/api/og?variant=event-modal&title=Canal%20Amapiano%20Sunset&date=Sunday%2021st&arrondissement=10e&eventCount=14";
  const appUrl = `http://127.0.0.1:${app.server!.port}${path}`;
  const bytes = new Uint8Array(await (await fetch(appUrl)).arrayBuffer());
  const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(bytes, { headers: { "content-type": "image/png" } }) });
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  let n = 0;
  // A new client address per request: the guard allows 120 per IP per hour.
  const request = (url: string) => () => new Request(url, { headers: { "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}` } });
  const opts = { total: 5000, concurrency: 50, expectStatus: 200 };
  await load(request(bareUrl), { ...opts, total: 500 });
  const baseline = await load(request(bareUrl), opts);
  const subject = await load(request(appUrl), opts);
  report("GET /api/og (cached image, batched IP guard)", subject, baseline);

  // What a cache miss costs: distinct venues, one at a time (satori layout + resvg raster).
  const times: number[] = [];
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now();
    const res = await fetch(`${appUrl}&venue=Venue%20${i}`, { headers: { "x-forwarded-for": `10.255.0.${i}` } });
    await res.arrayBuffer();
    if (res.headers.get("x-cache") !== "MISS") throw new Error("expected a fresh render");
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${"GET /api/og (uncached render, one at a time)".padEnd(44)} median ${times[6].toFixed(0)} ms  max ${times[11].toFixed(0)} ms`);
  bare.stop(true);
  await app.stop(true);
  await deps.shutdown();
}
