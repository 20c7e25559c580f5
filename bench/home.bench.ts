// The homepage from the render cache, each beside a bare Bun.serve sending the same (brotli) bytes
// in the same run: the cached full page over the sample sheet, and a filtered htmx fragment over a
// 2,000-row sheet. A third line shows fragments that miss the cache (a new search each request).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { saveStoreSheet } from "../src/lib/store/store.ts";
import { bigSheet } from "./events.bench.ts";
import { load, report } from "./lib.ts";

const RAW = { decompress: false } as RequestInit;
const BROTLI = { "accept-encoding": "br" };

/** A bare server answering every request with the bytes and encoding of one app response. */
async function bareTwin(url: string, headers: Record<string, string>) {
  const warm = await fetch(url, { headers: { ...BROTLI, ...headers }, ...RAW });
  const bytes = new Uint8Array(await warm.arrayBuffer());
  const encoding = warm.headers.get("content-encoding") ?? "identity";
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(bytes, { headers: { "content-type": "text/html; charset=utf-8", "content-encoding": encoding } }),
  });
  return { server, url: `http://127.0.0.1:${server.port}/`, bytes: bytes.byteLength };
}

async function compare(name: string, appUrl: string, headers: Record<string, string>): Promise<void> {
  const twin = await bareTwin(appUrl, headers);
  const opts = { total: 10000, concurrency: 50, expectStatus: 200, init: RAW };
  const req = (url: string) => () => new Request(url, { headers: { ...BROTLI, ...headers } });
  await load(req(twin.url), { ...opts, total: 1000 });
  await load(req(appUrl), { ...opts, total: 1000 });
  const baseline = await load(req(twin.url), opts);
  const subject = await load(req(appUrl), opts);
  report(`${name} (${(twin.bytes / 1024).toFixed(0)} KiB br)`, subject, baseline);
  twin.server.stop(true);
}

export async function benchHome(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "finder-bench-home-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "remote", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false", DATA_DIR: dataDir, LOG_LEVEL: "error" });
  const deps = await buildDeps(config, { log: createMemoryLogger() });
  const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  try {
    // The cached homepage over the sample sheet.
    const sample = await saveStoreSheet(deps.db, readFileSync(config.localEventsCsv, "utf8"), { updatedBy: "system", origin: "manual", now: new Date() });
    if (!sample.ok) throw new Error(sample.error);
    await compare("GET / (cached, sample sheet)", `${base}/`, {});

    // A filtered htmx fragment over 2,000 events.
    const big = await saveStoreSheet(deps.db, bigSheet(2000), { updatedBy: "system", origin: "manual", now: new Date() });
    if (!big.ok) throw new Error(big.error);
    await deps.invalidation.invalidate({ paths: ["/"] });
    const htmx = { "hx-request": "true" };
    await compare("GET /?g=house&dn=night fragment (2,000 rows)", `${base}/?g=house&dn=night`, htmx);

    // Misses: every request a new search, so every one is a live read and a render.
    let n = 0;
    const missUrl = () => new Request(`${base}/?g=house&q=venue+${n++ % 100000}`, { headers: { ...BROTLI, ...htmx } });
    const misses = await load(missUrl, { total: 300, concurrency: 50, expectStatus: 200, init: RAW });
    console.log(
      `${"fragment cache misses (new search each, 2,000 rows)".padEnd(44)} ${misses.rps.toFixed(0).padStart(7)} req/s  p99 ${misses.p99.toFixed(0)} ms  | every miss is a live read of the store (no event cache, spec rule 5)${misses.errors ? `  errors ${misses.errors}` : ""}`,
    );
  } finally {
    await app.stop(true);
    await deps.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
