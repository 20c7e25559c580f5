// Load-generation helpers for the benchmarks. The server under test always runs in a process of
// its own, pinned to one core; the load comes from another process (wrk, or this bench process for
// request bodies wrk cannot vary) pinned to the other core, so client and server never share an
// event loop. Every figure is printed beside a baseline measured in the same run, warm-up discarded.

import { availableParallelism } from "node:os";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

/** Result of one load run. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export const ROOT = join(import.meta.dir, "..");

/** Cores for the server and for the load generator (the same core on a 1-core machine). */
export const SERVER_CPU = 0;
export const LOAD_CPU = availableParallelism() > 1 ? 1 : 0;

const HAS_TASKSET = Bun.which("taskset") !== null;

/** Prefixes a command with `taskset -c <cpu>` where taskset exists. */
export function pinned(cpu: number, command: string[]): string[] {
  return HAS_TASKSET ? ["taskset", "-c", String(cpu), ...command] : command;
}

/** Pins this process (and the load it generates itself) to one core; no-op without taskset. */
export function pinSelf(cpu: number): void {
  if (HAS_TASKSET) Bun.spawnSync(["taskset", "-pc", String(cpu), String(process.pid)], { stdout: "ignore" });
}

/** A server process started for a bench. */
export interface BenchServer {
  proc: Subprocess;
  port: number;
  url: string;
  /** Extra values the server printed on its READY line (JSON). */
  info: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Starts `bun <script> <args…>` pinned to the server core and waits for its `READY <port> [json]`
 * line on stdout. Server scripts live in bench/servers/.
 */
export async function startServer(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<BenchServer> {
  const proc = Bun.spawn(pinned(SERVER_CPU, [process.execPath, join(ROOT, script), ...args]), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const line = buffered.split("\n").find((l) => l.startsWith("READY "));
    if (line) {
      reader.releaseLock();
      // Keep draining stdout so the child never blocks on a full pipe.
      void proc.stdout.pipeTo(new WritableStream()).catch(() => {});
      const [, port, ...rest] = line.split(" ");
      const info = rest.length ? (JSON.parse(rest.join(" ")) as Record<string, unknown>) : {};
      return {
        proc,
        port: Number(port),
        url: `http://127.0.0.1:${port}`,
        info,
        stop: async () => {
          proc.kill("SIGTERM");
          await Promise.race([proc.exited, Bun.sleep(10_000)]);
          if (proc.exitCode === null) proc.kill("SIGKILL");
        },
      };
    }
  }
  proc.kill("SIGKILL");
  throw new Error(`${script} did not print READY within 60 s`);
}

/** Starts a bare Bun.serve process answering every request with these bytes and headers. */
export async function startBareTwin(bytes: Uint8Array, headers: Record<string, string>): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), "finder-bench-twin-"));
  const file = join(dir, "body.bin");
  writeFileSync(file, bytes);
  return startServer("bench/servers/bare.server.ts", [file, JSON.stringify(headers)]);
}

/** Headers the server sets per connection or per response, never copied into a twin. */
const TRANSPORT_HEADERS = new Set(["date", "content-length", "connection", "keep-alive", "transfer-encoding"]);

/**
 * Fetches the raw (still compressed) bytes of one response with its headers: `headers` holds the
 * four that describe the body (type, encoding, caching, vary), `allHeaders` every header the app
 * sent except the transport ones, for a twin that sends byte for byte the same response.
 */
export async function rawResponse(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ bytes: Uint8Array; headers: Record<string, string>; allHeaders: Record<string, string>; status: number }> {
  const res = await fetch(url, { headers, decompress: false } as RequestInit);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const kept: Record<string, string> = {};
  for (const name of ["content-type", "content-encoding", "cache-control", "vary"]) {
    const value = res.headers.get(name);
    if (value) kept[name] = value;
  }
  const all: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!TRANSPORT_HEADERS.has(name)) all[name] = value;
  });
  return { bytes, headers: kept, allHeaders: all, status: res.status };
}

function toMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "ms" ? value : match[2] === "s" ? value * 1000 : value * 60_000;
}

/** Parses wrk's `--latency` report. */
export function parseWrk(output: string, seconds: number): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? "0");
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? "0");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? "0");
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  const p50 = toMs(/\s50%\s+(\S+)/.exec(output)?.[1] ?? "");
  const p99 = toMs(/\s99%\s+(\S+)/.exec(output)?.[1] ?? "");
  return { requests, errors: non2xx + socketErrors, seconds, rps, p50, p99 };
}

export interface WrkOptions {
  headers?: Record<string, string>;
  seconds?: number;
  connections?: number;
  /** A wrk Lua script (for per-request headers or bodies). */
  script?: string;
}

/** Runs wrk from its own process on the load core. */
export async function wrk(url: string, options: WrkOptions = {}): Promise<LoadResult> {
  if (!Bun.which("wrk")) throw new Error("wrk is not installed (Debian package 'wrk'); the HTTP benchmarks need it");
  const seconds = options.seconds ?? 5;
  const args = ["wrk", "-t1", `-c${options.connections ?? 50}`, `-d${seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script) {
    const dir = mkdtempSync(join(tmpdir(), "finder-bench-wrk-"));
    const file = join(dir, "script.lua");
    writeFileSync(file, options.script);
    args.push("-s", file);
  }
  args.push(url);
  const proc = Bun.spawn(pinned(LOAD_CPU, args), { stdout: "pipe", stderr: "pipe" });
  const output = await new Response(proc.stdout).text();
  await proc.exited;
  if (proc.exitCode !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  return parseWrk(output, seconds);
}

/**
 * Measures a subject URL beside a baseline URL with the same load: a discarded warm-up of each,
 * then baseline, subject, and the baseline again (the two baseline runs are averaged, so a machine
 * that slows down during the run does not favour either side). With `rounds` > 1 the sequence
 * continues (baseline, subject, baseline, subject, ..., baseline): each subject run is set against
 * the baseline runs on either side of it, and the median round is reported with the range of all
 * rounds' ratios, since two runs of the same server differ by several percent on a shared machine.
 */
export async function compareWrk(name: string, subjectUrl: string, baselineUrl: string, options: WrkOptions & { rounds?: number } = {}): Promise<{ subject: LoadResult; baseline: LoadResult }> {
  const warm = { ...options, seconds: 2 };
  await wrk(baselineUrl, warm);
  await wrk(subjectUrl, warm);
  const rounds: { subject: LoadResult; baseline: LoadResult }[] = [];
  let before = await wrk(baselineUrl, options);
  for (let round = 0; round < Math.max(1, options.rounds ?? 1); round++) {
    const subject = await wrk(subjectUrl, options);
    const after = await wrk(baselineUrl, options);
    rounds.push({ subject, baseline: averaged(before, after) });
    before = after;
  }
  rounds.sort((a, b) => a.subject.rps / a.baseline.rps - b.subject.rps / b.baseline.rps);
  const middle = rounds[Math.floor(rounds.length / 2)];
  const ratios = rounds.map((r) => (r.subject.rps / r.baseline.rps).toFixed(2));
  report(rounds.length > 1 ? `${name} (median of ${rounds.length}: ${ratios[0]}-${ratios[ratios.length - 1]}x)` : name, middle.subject, middle.baseline);
  return middle;
}

/**
 * A cached response of the app beside two bare Bun.serve twins in their own processes: one sending
 * the same body with the four headers that describe it, and one sending the same response byte
 * for byte (the body and every header the app sent: the security headers, ETag, cache state). The
 * second isolates what the cache hit itself costs, over five alternating rounds; the first also
 * counts the cost of the extra headers on the wire. `headers` are the request's (encoding, htmx).
 */
export async function compareWithTwins(name: string, appUrl: string, headers: Record<string, string>): Promise<void> {
  // The twins send what a hit sends: a render-cache miss answers with a body compressed for that
  // one answer (the fastest level), so the first request only fills the cache.
  await rawResponse(appUrl, headers);
  const response = await rawResponse(appUrl, headers);
  if (response.status !== 200) throw new Error(`${appUrl} answered ${response.status}`);
  const encoding = response.headers["content-encoding"] ?? "identity";
  const label = `${name} (${(response.bytes.byteLength / 1024).toFixed(0)} KiB ${encoding})`;
  const twin = await startBareTwin(response.bytes, response.headers);
  try {
    await compareWrk(`${label}, bare: body + 4 headers`, appUrl, `${twin.url}/`, { headers });
  } finally {
    await twin.stop();
  }
  const same = await startBareTwin(response.bytes, response.allHeaders);
  try {
    await compareWrk(`${label}, bare: same ${Object.keys(response.allHeaders).length} headers`, appUrl, `${same.url}/`, { headers, rounds: 5 });
  } finally {
    await same.stop();
  }
}

function averaged(a: LoadResult, b: LoadResult): LoadResult {
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * A bounded closed-loop HTTP client run in this bench process, for loads whose bodies or headers
 * change per request. The server must be another process (see startServer).
 */
export async function load(
  makeRequest: () => Request,
  options: { total: number; concurrency: number; expectStatus?: number; init?: RequestInit & { decompress?: boolean } },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  async function worker() {
    while (sent < options.total) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await fetch(makeRequest(), options.init);
        await res.arrayBuffer();
        if (options.expectStatus !== undefined && res.status !== options.expectStatus) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Prints one benchmark line with its ratio to the baseline of the same run. */
export function report(name: string, subject: LoadResult, baseline: LoadResult): void {
  const ratio = subject.rps / baseline.rps;
  console.log(
    `${name.padEnd(52)} ${subject.rps.toFixed(0).padStart(7)} req/s  p99 ${subject.p99.toFixed(2).padStart(6)} ms  | baseline ${baseline.rps.toFixed(0).padStart(7)} req/s p99 ${baseline.p99.toFixed(2).padStart(6)} ms | ratio ${ratio.toFixed(2)}x${subject.errors ? `  errors ${subject.errors}` : ""}`,
  );
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
}
