// Takes a phone screenshot of / with the app clock and the browser clock set inside the festival
// (21 June, 21:30 Paris), over the sample sheet or a generated one, and prints the first-load sizes.
// Usage: bun scripts/phone-shot.ts <out.png> [rows]
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/lib/config.ts";
import { buildDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { createMemoryLogger } from "../src/lib/logger.ts";
import { saveStoreSheet } from "../src/lib/store/store.ts";
import { bigSheet } from "../bench/fixtures.ts";
import { launchBrowser, newContext } from "../test/helpers/browser.ts";

const out = process.argv[2] ?? "/tmp/phone.png";
const rows = process.argv[3] ? Number(process.argv[3]) : undefined;
const at = new Date("2026-06-21T19:30:00Z");
const config = loadConfig({ NODE_ENV: "test", DATA_MODE: "remote", AUTH_SECRET: "b".repeat(40), CRON_ENABLED: "false", DATA_DIR: mkdtempSync(join(tmpdir(), "finder-shot-")), LOG_LEVEL: "error" });
const deps = await buildDeps(config, { log: createMemoryLogger(), now: () => at });
const csv = rows ? bigSheet(rows) : readFileSync(config.localEventsCsv, "utf8");
const saved = await saveStoreSheet(deps.db, csv, { updatedBy: "system", origin: "manual", now: at });
if (!saved.ok) throw new Error(saved.error);
const server = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
const url = `http://127.0.0.1:${server.server!.port}`;
const browser = await launchBrowser();
const context = await newContext(browser, "phone");
const page = await context.newPage();
await page.clock.setFixedTime(at);
let bytes = 0;
page.on("response", async (r) => {
  const len = Number(r.headers()["content-length"] ?? 0);
  const body = len || (await r.body().catch(() => Buffer.alloc(0))).byteLength;
  bytes += body;
  console.log(r.status(), r.url().replace(url, ""), r.headers()["content-encoding"] ?? "-", body);
});
await page.goto(`${url}/`, { waitUntil: "networkidle" });
console.log("DOM nodes", await page.evaluate(() => document.getElementsByTagName("*").length));
const firstCard = await page.evaluate(() => document.querySelector("#results article.card")?.getBoundingClientRect().top ?? -1);
console.log("first list card top", firstCard, "transfer bytes", bytes);
await page.screenshot({ path: out, fullPage: false });
await page.screenshot({ path: out.replace(/\.png$/, "-full.png"), fullPage: true });
await browser.close();
await server.stop(true);
await deps.shutdown();
process.exit(0);
