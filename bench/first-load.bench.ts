// The first load of `/` in Chromium on a 390×844 phone at 21:30 on 21 June (Paris), over the sample
// sheet, with Lighthouse's mobile CPU slowdown (4×): bytes transferred (every response of the page
// until the network is idle, as sent: brotli bodies plus headers), DOM nodes and elements, and the
// style and layout time from a Chromium trace (UpdateLayoutTree and Layout events of the page's
// renderer, their total and the first pass before the first paint). Each figure is the median of 5
// fresh loads (new context: no HTTP cache, no service worker).
//
// Beside it, in the same run, the floor: a bare page with one paragraph, loaded the same way, whose
// style and layout time says how busy the machine is; and the figures of main at 0a5c558 (before
// the first screen was reworked), measured by this same section on the same machine.

import type { CDPSession, Page } from "playwright-core";
import { cpus, loadavg } from "node:os";
import { median, startServer } from "./lib.ts";
import { launchBrowser } from "../test/helpers/browser.ts";

/** Festival night: 21:30 on 21 June, Paris (19:30 UTC). */
const AT = "2026-06-21T19:30:00Z";
const PHONE = { width: 390, height: 844 };
const CPU_SLOWDOWN = 4;
const LOADS = 5;

/** One load's figures. */
interface FirstLoad {
  bytes: number;
  requests: number;
  nodes: number;
  elements: number;
  styleMs: number;
  layoutMs: number;
  /** Style and layout before the first contentful paint (the first pass that shows the page). */
  firstPassMs: number;
}

/**
 * Main at 0a5c558, measured by this section (5 loads, median) on the shared 2-core machine, with a
 * load average of 25 then 17 (the floor's style + layout was 12 + 67 ms in that run). The style and
 * layout times move with the machine's load; the floor printed beside them tells how busy it was.
 */
const BEFORE: FirstLoad = { bytes: 56_730, requests: 23, nodes: 3583, elements: 1043, styleMs: 3232.2, layoutMs: 2474.0, firstPassMs: 622.6 };

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { frame?: string } };
}

/** Reads the trace Chromium streams back after Tracing.end. */
function collectTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (message) => {
    events.push(...(message.value as unknown as TraceEvent[]));
  });
  return new Promise((resolve) => cdp.once("Tracing.tracingComplete", () => resolve(events)));
}

/** Style and layout time of the page's main thread: totals and the part before the first contentful paint. */
function styleAndLayout(events: TraceEvent[]): { styleMs: number; layoutMs: number; firstPassMs: number } {
  const fcp = events.find((e) => e.name === "firstContentfulPaint");
  // The renderer main thread is the one that painted (or, failing that, the one that laid out).
  const anchor = fcp ?? events.find((e) => e.name === "Layout");
  const onMain = (e: TraceEvent) => anchor !== undefined && e.pid === anchor.pid && e.tid === anchor.tid && e.ph === "X";
  let styleMs = 0;
  let layoutMs = 0;
  let firstPassMs = 0;
  for (const e of events) {
    if (!onMain(e) || (e.name !== "UpdateLayoutTree" && e.name !== "Layout")) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (e.name === "Layout") layoutMs += ms;
    else styleMs += ms;
    if (fcp === undefined || e.ts < fcp.ts) firstPassMs += ms;
  }
  return { styleMs, layoutMs, firstPassMs };
}

export async function loadOnce(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string): Promise<FirstLoad> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: "fr-FR", serviceWorkers: "block" });
  try {
    const page: Page = await context.newPage();
    await page.clock.setFixedTime(new Date(AT));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await cdp.send("Network.enable");
    await cdp.send("Performance.enable");
    let bytes = 0;
    let requests = 0;
    cdp.on("Network.loadingFinished", (e) => {
      bytes += e.encodedDataLength;
      requests++;
    });
    const trace = collectTrace(cdp);
    await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,loading", transferMode: "ReportEvents" });
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await page.waitForLoadState("networkidle", { timeout: 120_000 });
    await cdp.send("Tracing.end");
    const times = styleAndLayout(await trace);
    const metrics = await cdp.send("Performance.getMetrics");
    const nodes = metrics.metrics.find((m) => m.name === "Nodes")?.value ?? 0;
    const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
    return { bytes, requests, nodes, elements, ...times };
  } finally {
    await context.close();
  }
}

/** The median of each figure over `loads` fresh loads. */
async function measure(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string, loads: number): Promise<FirstLoad> {
  const runs: FirstLoad[] = [];
  for (let i = 0; i < loads; i++) runs.push(await loadOnce(browser, url));
  const pick = (name: keyof FirstLoad) => median(runs.map((run) => run[name]));
  return { bytes: pick("bytes"), requests: pick("requests"), nodes: pick("nodes"), elements: pick("elements"), styleMs: pick("styleMs"), layoutMs: pick("layoutMs"), firstPassMs: pick("firstPassMs") };
}

function describe(load: FirstLoad): string {
  return `${(load.bytes / 1024).toFixed(1)} KiB in ${load.requests} responses, ${load.nodes} DOM nodes (${load.elements} elements), style ${load.styleMs.toFixed(1)} ms + layout ${load.layoutMs.toFixed(1)} ms, first pass ${load.firstPassMs.toFixed(1)} ms`;
}

export async function benchFirstLoad(): Promise<void> {
  const app = await startServer("servers/app.server.ts", [JSON.stringify({ dataMode: "remote", seed: "sample", at: AT, env: { DEFAULT_LANGUAGE: "fr" } })]);
  const floor = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<!doctype html><meta name=viewport content='width=device-width'><p>finder</p>", { headers: { "content-type": "text/html" } }) });
  const browser = await launchBrowser();
  const loadBefore = loadavg()[0]!;
  try {
    await loadOnce(browser, `${app.url}/`); // warm-up (render cache, compressed static files), discarded
    const subject = await measure(browser, `${app.url}/`, LOADS);
    const bare = await measure(browser, `http://127.0.0.1:${floor.port}/`, LOADS);
    console.log(`${"first load of / on a phone at 21:30 (4x CPU slowdown)".padEnd(52)} ${describe(subject)}`);
    console.log(`${"  floor: a bare one-paragraph page, same run".padEnd(52)} ${describe(bare)}`);
    if (BEFORE.bytes > 0) console.log(`${"  main at 0a5c558 (same section, same machine)".padEnd(52)} ${describe(BEFORE)}`);
    console.log(`${"  load average".padEnd(52)} ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after, ${cpus().length} cores (times hold only on a quiet machine)`);
  } finally {
    await browser.close();
    floor.stop(true);
    await app.stop();
  }
}
