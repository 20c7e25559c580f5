// Load-generation helpers for the benchmarks. The server under test always runs in a process of
// its own, pinned to core 0; the load comes from wrk, in a process of its own pinned to core 1, so
// client and server never share a core and the server, not the client, sets the pace (a Bun client
// at concurrency 100 was measured to be the limit: it reported 0.97x where wrk found 0.40x). Every
// run starts with a discarded warm-up, and every figure is printed beside a baseline measured in
// the same run, with both absolute rates and the CPU each side used.

import { availableParallelism } from "node:os";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

/** The checkout whose service is measured: the folder above this bench folder. */
export const ROOT = join(import.meta.dir, "..");
/** This bench folder (server scripts are named relative to it, so a copy beside another checkout works). */
export const BENCH_DIR = import.meta.dir;
/**
 * The app's clock for benches over the sample or generated sheets (dated June 2026): a day before
 * that edition's window, so the homepage lists the whole sheet whatever today's date (it lists the
 * current edition only: docs/editions.md) and the benches measure the same pages every year.
 */
export const LISTED_AT = "2026-06-10T12:00:00Z";

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
 * line on stdout. `script` is relative to the bench folder (server scripts live in servers/).
 */
export async function startServer(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<BenchServer> {
  const proc = Bun.spawn(pinned(SERVER_CPU, [process.execPath, join(BENCH_DIR, script), ...args]), {
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
  return startServer("servers/bare.server.ts", [file, JSON.stringify(headers)]);
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

/** One request of a wrk load, as data: the helper writes the Lua that sends it. */
export interface WrkRequest {
  method?: string;
  /** Path and query, e.g. `/api/track`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkOptions {
  headers?: Record<string, string>;
  seconds?: number;
  connections?: number;
  /**
   * Requests sent in turn, one per request, as data. In any of their strings `{n}` becomes the
   * request's number in the run, `{n%M}` that number modulo M and `{n/D%M}` the number divided by D
   * (rounded down) modulo M, e.g. `10.1.{n/256%64}.{n%256}` for 16,384 client addresses; `{run}`
   * becomes the run's label (`warm`, or the round), so two runs never send the same request.
   */
  requests?: WrkRequest[];
  /**
   * Lua of a request() (and a response()) of its own, for loads the data form cannot say. The
   * global RUN holds the run's label (`warm`, or the round's number), as `{run}` does for `requests`.
   */
  script?: string;
  /** Globals the script counts, summed over wrk's threads into the result's `counters`. */
  counters?: string[];
  /** Counts the answers by status (a response() hook: it costs wrk time, so only where needed). */
  countStatuses?: boolean;
  /** Answers over 399 and socket errors are expected (a run through an outage); otherwise they fail the bench. */
  allowErrors?: boolean;
  /** The server process, whose CPU use during the run is reported. */
  serverPid?: number;
  /** The run's label, for `{run}` (set by compareWrk). */
  label?: string;
}

/** Result of one load run. Times in milliseconds. */
export interface LoadResult {
  /** Answers received. */
  requests: number;
  /** Answers with a status over 399, plus socket errors (connect, read, write, timeout). */
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** Requests the data form sent (with `requests`): the answered ones plus those still in flight at the end. */
  sent?: number;
  /** Answers by status (with `countStatuses`). */
  statuses?: Record<string, number>;
  /** The script's counters (with `counters`). */
  counters: Record<string, number>;
  /** Share of its core the load generator used: near 1, the client may be what sets the pace. */
  clientCpu: number;
  /** Share of one core the server process used (with `serverPid`). */
  serverCpu?: number;
}

/** Seconds of each measured wrk run (BENCH_SECONDS overrides the benches' own). */
const SECONDS_OVERRIDE = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : undefined;

/** Fails with the package to install when wrk is missing; the HTTP benches need it. */
export function requireWrk(): void {
  if (!Bun.which("wrk")) throw new Error("wrk is not installed: the HTTP benchmarks drive their load with it. Install the Debian package 'wrk' (apt-get install wrk)");
}

/** A Lua string literal of any text (bytes outside printable ASCII as decimal escapes). */
function luaString(text: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(text)) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte}`;
  }
  return `${out}"`;
}

/** A Lua expression of a template string, its `{n…}` placeholders computed from the request number `n`. */
function luaTemplate(text: string, label: string): string {
  const parts: string[] = [];
  let last = 0;
  const withRun = text.replaceAll("{run}", label);
  for (const match of withRun.matchAll(/\{n(?:\/(\d+))?(?:%(\d+))?\}/g)) {
    if (match.index > last) parts.push(luaString(withRun.slice(last, match.index)));
    const divided = match[1] ? `math.floor(n / ${match[1]})` : "n";
    parts.push(match[2] ? `(${divided} % ${match[2]})` : `(${divided})`);
    last = match.index + match[0].length;
  }
  if (last < withRun.length || parts.length === 0) parts.push(luaString(withRun.slice(last)));
  return parts.join(" .. ");
}

/** The request() of a data-form load: each template a function of the request number. */
function requestsScript(requests: WrkRequest[], shared: Record<string, string>, label: string): string {
  const functions = requests.map((r) => {
    const headers = Object.entries({ ...shared, ...r.headers }).map(([name, value]) => `[${luaString(name)}] = ${luaTemplate(value, label)}`);
    const body = r.body === undefined ? "nil" : luaTemplate(r.body, label);
    return `  function(n) return wrk.format(${luaString(r.method ?? "GET")}, ${luaTemplate(r.path, label)}, { ${headers.join(", ")} }, ${body}) end`;
  });
  return `local templates = {\n${functions.join(",\n")}\n}
local n = -1
sent = 0
request = function()
  if n < 0 then n = thread_id * 1000000000 end
  local t = templates[(n % #templates) + 1]
  local r = t(n)
  n = n + 1
  sent = sent + 1
  return r
end
`;
}

/** What every run's script ends with: thread bookkeeping, optional status counts, and one result line. */
function resultScript(counters: string[], countStatuses: boolean): string {
  return `
thread_id = thread_id or 0
local threads = {}
local next_id = 0
setup = function(thread)
  thread:set("thread_id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end
${countStatuses ? `statuses = {}
local counted_response = response
response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if counted_response then counted_response(status, headers, body) end
end` : ""}
local counters = { ${counters.map(luaString).join(", ")} }
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nWRK_RESULT {"requests":%d,"durationUs":%d,"status":%d,"socket":%d,"p50":%d,"p90":%d,"p99":%d',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99)))
  local sums, statuses = {}, {}
  for _, t in ipairs(threads) do
    for _, name in ipairs(counters) do sums[name] = (sums[name] or 0) + (t:get(name) or 0) end
    for status, count in pairs(t:get("statuses") or {}) do statuses[status] = (statuses[status] or 0) + count end
  end
  io.write(',"counters":{')
  for i, name in ipairs(counters) do io.write(string.format('%s"%s":%d', i > 1 and "," or "", name, sums[name] or 0)) end
  io.write('},"statuses":{')
  local first = true
  for status, count in pairs(statuses) do
    io.write(string.format('%s"%d":%d', first and "" or ",", status, count))
    first = false
  end
  io.write("}}\\n")
end
`;
}

/** CPU seconds used so far by a process (Linux /proc), or undefined where unavailable. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Runs wrk from its own process on the load core (one thread: the core is one), the result read
 * from the Lua done() hook. Answers over 399 and socket errors fail the run unless `allowErrors`:
 * a bench of errors would report a fast rate of nothing. A plain GET is first fetched once and
 * must answer 2xx, so a redirect does not pass for a page either.
 */
export async function wrk(url: string, options: WrkOptions = {}): Promise<LoadResult> {
  requireWrk();
  const seconds = SECONDS_OVERRIDE ?? options.seconds ?? 5;
  const label = options.label ?? "run";
  if (!options.requests && !options.script && !options.allowErrors) {
    const probe = await fetch(url, { headers: options.headers, redirect: "manual", decompress: false } as RequestInit);
    await probe.arrayBuffer();
    if (probe.status < 200 || probe.status > 299) throw new Error(`${url} answered ${probe.status}, not 2xx: nothing to measure`);
  }
  const lua = `RUN = ${luaString(label)}\n${options.requests ? requestsScript(options.requests, options.headers ?? {}, label) : (options.script ?? "")}\n${resultScript([...(options.counters ?? []), ...(options.requests ? ["sent"] : [])], options.countStatuses ?? false)}`;
  const dir = mkdtempSync(join(tmpdir(), "finder-bench-wrk-"));
  const file = join(dir, "load.lua");
  writeFileSync(file, lua);
  const args = ["wrk", "-t1", `-c${options.connections ?? 50}`, `-d${seconds}s`, "--timeout", "10s", "-s", file];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(url);
  try {
    const serverBefore = options.serverPid === undefined ? undefined : cpuSeconds(options.serverPid);
    const started = performance.now();
    const proc = Bun.spawn(pinned(LOAD_CPU, args), { stdout: "pipe", stderr: "pipe" });
    const [output, errorOutput] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await proc.exited;
    const wall = (performance.now() - started) / 1000;
    const line = /^WRK_RESULT (.*)$/m.exec(output)?.[1];
    if (proc.exitCode !== 0 || !line) throw new Error(`wrk failed on ${url} (exit ${proc.exitCode}): ${errorOutput}${output}`);
    const r = JSON.parse(line) as { requests: number; durationUs: number; status: number; socket: number; p50: number; p90: number; p99: number; counters: Record<string, number>; statuses: Record<string, number> };
    const serverAfter = options.serverPid === undefined ? undefined : cpuSeconds(options.serverPid);
    const runSeconds = r.durationUs / 1e6;
    const result: LoadResult = {
      requests: r.requests,
      errors: r.status + r.socket,
      seconds: runSeconds,
      rps: r.requests / runSeconds,
      p50: r.p50 / 1000,
      p90: r.p90 / 1000,
      p99: r.p99 / 1000,
      sent: options.requests ? r.counters.sent : undefined,
      statuses: options.countStatuses ? r.statuses : undefined,
      counters: r.counters,
      clientCpu: Number(proc.resourceUsage()?.cpuTime.total ?? 0n) / 1e6 / wall,
      serverCpu: serverBefore !== undefined && serverAfter !== undefined ? (serverAfter - serverBefore) / wall : undefined,
    };
    if (!options.allowErrors && result.errors > 0) {
      throw new Error(`${url}: ${r.status} answers over 399 and ${r.socket} socket errors in ${r.requests} answers: a bench of errors measures nothing`);
    }
    if (result.requests === 0) throw new Error(`${url}: no answer in ${seconds} s`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A server to load: its URL, its process (for its CPU use) and options of its own (its requests). */
export interface WrkTarget extends WrkOptions {
  url: string;
}

/** A bench server's URL (and process) as a load target. */
export function at(server: BenchServer, path = "", options: WrkOptions = {}): WrkTarget {
  return { ...options, url: `${server.url}${path}`, serverPid: server.proc.pid };
}

function asTarget(target: string | WrkTarget): WrkTarget {
  return typeof target === "string" ? { url: target } : target;
}

/** One comparison: the subject's run set against the baseline runs around it. */
export interface Comparison {
  subject: LoadResult;
  baseline: LoadResult;
  ratio: number;
}

/**
 * Measures a subject beside a baseline with the same load: a discarded warm-up of each (label
 * `warm`), then baseline, subject, and the baseline again (the two baseline runs are averaged, so
 * a machine that slows down during the run does not favour either side). With `rounds` > 1 the
 * sequence continues (baseline, subject, baseline, subject, ..., baseline): each subject run is
 * set against the baseline runs on either side of it, and the median round is reported with the
 * range of all rounds' ratios, since two runs of the same server differ by several percent on a
 * shared machine. Several subjects take turns within each round against the same baselines.
 */
export async function compareWrk(name: string, subject: string | WrkTarget, baseline: string | WrkTarget, options: WrkOptions & { rounds?: number } = {}): Promise<Comparison> {
  const [result] = await compareMany([{ name, target: subject }], baseline, options);
  return result!;
}

/** compareWrk for several subjects against one baseline: per round baseline, each subject, baseline. */
export async function compareMany(subjects: { name: string; target: string | WrkTarget }[], baseline: string | WrkTarget, options: WrkOptions & { rounds?: number } = {}): Promise<Comparison[]> {
  const base = { ...options, ...asTarget(baseline) };
  const targets = subjects.map((s) => ({ ...options, ...asTarget(s.target) }));
  const warm = { seconds: 2, label: "warm" };
  await wrk(base.url, { ...base, ...warm });
  for (const t of targets) await wrk(t.url, { ...t, ...warm });
  const rounds = Math.max(1, options.rounds ?? 1);
  const runs: Comparison[][] = subjects.map(() => []);
  let before = await wrk(base.url, { ...base, label: "base0" });
  for (let round = 0; round < rounds; round++) {
    const measured: LoadResult[] = [];
    for (const t of targets) measured.push(await wrk(t.url, { ...t, label: String(round + 1) }));
    const after = await wrk(base.url, { ...base, label: `base${round + 1}` });
    const around = averaged(before, after);
    measured.forEach((m, i) => runs[i]!.push({ subject: m, baseline: around, ratio: m.rps / around.rps }));
    before = after;
  }
  return subjects.map((s, i) => {
    const sorted = [...runs[i]!].sort((a, b) => a.ratio - b.ratio);
    const middle = sorted[Math.floor(sorted.length / 2)]!;
    const range = sorted.length > 1 ? ` (median of ${sorted.length}: ${sorted[0]!.ratio.toFixed(2)}-${sorted.at(-1)!.ratio.toFixed(2)}x)` : "";
    report(`${s.name}${range}`, middle.subject, middle.baseline);
    return middle;
  });
}

/**
 * A cached response of the app beside two bare Bun.serve twins in their own processes: one sending
 * the same body with the four headers that describe it, and one sending the same response byte
 * for byte (the body and every header the app sent: the security headers, ETag, cache state). The
 * second isolates what the cache hit itself costs, over five alternating rounds; the first also
 * counts the cost of the extra headers on the wire. `headers` are the request's (encoding, htmx).
 */
export async function compareWithTwins(name: string, app: WrkTarget, headers: Record<string, string>): Promise<void> {
  const appUrl = app.url;
  // The twins send what a hit sends: a render-cache miss answers with a body compressed for that
  // one answer (the fastest level), so the first request only fills the cache.
  await rawResponse(appUrl, headers);
  const response = await rawResponse(appUrl, headers);
  if (response.status !== 200) throw new Error(`${appUrl} answered ${response.status}`);
  const encoding = response.headers["content-encoding"] ?? "identity";
  const label = `${name} (${(response.bytes.byteLength / 1024).toFixed(0)} KiB ${encoding})`;
  const twin = await startBareTwin(response.bytes, response.headers);
  try {
    await compareWrk(`${label}, bare: body + 4 headers`, app, at(twin, "/"), { headers });
  } finally {
    await twin.stop();
  }
  const same = await startBareTwin(response.bytes, response.allHeaders);
  try {
    await compareWrk(`${label}, bare: same ${Object.keys(response.allHeaders).length} headers`, app, at(same, "/"), { headers, rounds: 5 });
  } finally {
    await same.stop();
  }
}

function averaged(a: LoadResult, b: LoadResult): LoadResult {
  const mean = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? undefined : (x + y) / 2);
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p90: (a.p90 + b.p90) / 2,
    p99: (a.p99 + b.p99) / 2,
    counters: {},
    clientCpu: (a.clientCpu + b.clientCpu) / 2,
    serverCpu: mean(a.serverCpu, b.serverCpu),
  };
}

const rate = (r: LoadResult) => `${Math.round(r.rps).toLocaleString("en")} req/s`;
const percent = (share: number | undefined) => (share === undefined ? "?" : `${Math.round(share * 100)} %`);

/**
 * Prints one benchmark line: the ratio to the baseline of the same run, both absolute rates and
 * the subject's p99, then the CPU each side used (a server near 100 % of its core is what set the
 * pace; wrk near 100 % of its own would mean the client did).
 */
export function report(name: string, subject: LoadResult, baseline: LoadResult): void {
  const ratio = subject.rps / baseline.rps;
  console.log(`${name}: ${ratio.toFixed(2)}x of baseline (baseline ${rate(baseline)}; service ${rate(subject)}; p99 ${subject.p99.toFixed(1)} ms)`);
  console.log(
    `  baseline p99 ${baseline.p99.toFixed(1)} ms; cpu: service ${percent(subject.serverCpu)}, baseline server ${percent(baseline.serverCpu)}, client ${percent(subject.clientCpu)} / ${percent(baseline.clientCpu)} of its core${subject.errors ? `; ${subject.errors} errors (allowed)` : ""}`,
  );
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
}
