// What process tests and benchmarks share when they run the service as a child process: a free
// loopback port, and a database several processes can share (a scratch database on the Postgres
// server, or an in-memory PGlite served over the wire from this process).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { currentEdition } from "../../src/lib/events/editions.ts";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { servePgliteOverWire } from "./pglite-wire.ts";
import { TEST_DATABASE_URL } from "./database.ts";

/** A loopback port nothing listens on right now (taken and released at once). */
export function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/** A database the child processes reach through `url`; `close` removes it. */
export interface SharedDatabase {
  url: string;
  close(): Promise<void>;
}

/** A database of its own on the Postgres server at `base`, named `<prefix>_<pid>_<random>`, dropped on close. */
export async function serverDatabase(base: string, prefix: string): Promise<SharedDatabase> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    close: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/** An in-memory PGlite served over the Postgres wire protocol from this process. */
export async function pgliteServer(): Promise<SharedDatabase> {
  const db = await PGlite.create();
  const server = await servePgliteOverWire(db);
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}

/**
 * A plain TCP proxy on a fixed port (in front of a database) that can be killed, cutting every
 * connection, and started again: an outage as a service sees it. `stall` keeps every connection
 * open but passes nothing either way (a database that stopped answering mid-query) until `flow`.
 */
export function tcpProxy(target: { host: string; port: number }, port: number) {
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {});
          if (stalled) socket.pause();
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  const stall = () => {
    stalled = true;
    for (const socket of sockets) socket.pause();
  };
  const flow = () => {
    stalled = false;
    for (const socket of sockets) socket.resume();
  };
  return { start, kill, stall, flow };
}

/**
 * Reads a child's stdout and stderr as they come (a full pipe would stall it) and returns the text
 * so far, for the message of a failed check.
 */
export function drainOutput(child: { stdout: unknown; stderr: unknown }): () => string {
  let text = "";
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      const reader = (stream as ReadableStream<Uint8Array>).getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read()) text += decoder.decode(part.value);
    })();
  }
  return () => text;
}

/** The repository's root, where the service is started from. */
const ROOT = join(import.meta.dir, "../..");

/** A service process in production mode whose database is reached through a proxy the test controls. */
export interface ProxiedService {
  /** The database behind the proxy (connect to `shared.url` to look past the proxy). */
  shared: SharedDatabase;
  proxy: ReturnType<typeof tcpProxy>;
  /** `http://127.0.0.1:<port>` of the service. */
  base: string;
  /** What the service printed so far. */
  output: () => string;
  /** Lets the proxy flow, stops the service, then the proxy, and removes the database and the data folder. */
  stop(): Promise<void>;
}

/**
 * Starts `src/index.ts` (NODE_ENV=production, DATA_MODE=remote, the sample sheet as the local
 * source) on a free port, its DATABASE_URL pointing at a TCP proxy in front of a database of its
 * own: on the Postgres server of TEST_DATABASE_URL, else an in-memory PGlite served over the wire.
 * `env` adds to or overrides the service's environment. Resolves once /api/health answers.
 */
/** A service process started by spawnService: its address, the child and its drained output. */
export interface RunningService {
  port: number;
  base: string;
  child: ReturnType<typeof Bun.spawn>;
  output: () => string;
}

/**
 * Starts `bun src/index.ts` in production mode on a free loopback port, `env` added to (or over) the
 * base environment (no scheduled tasks), its output drained as it comes (a full pipe would stall
 * it). Resolves once /api/health answers; kills it and throws with its logs after 60 s.
 */
export async function spawnService(env: Record<string, string>): Promise<RunningService> {
  const port = freePort();
  const child = Bun.spawn([process.execPath, "src/index.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", CRON_ENABLED: "false", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = drainOutput(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { port, base, child, output };
    } catch {}
    await Bun.sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`service did not start:\n${output()}`);
}

/**
 * The shipped sheet (data/events.csv, June 2026) with every date moved into `year` (by default the
 * year of the current edition on the real clock) and written in full, under `dir`: a real process
 * reads the real clock and its homepage lists the current edition only (docs/editions.md), so the
 * sample stays listed in any year the tests run. A date written without a year ("Sat 20 June") is
 * given one, so it cannot move with the clock.
 */
export function currentEditionSheet(dir: string, year = currentEdition(new Date()).year): string {
  const csv = readFileSync(join(ROOT, "data/events.csv"), "utf8")
    .replace(/\b2026-06-/g, `${year}-06-`)
    .replace(/\b(\d{1,2}) June 2026\b/g, (_, day: string) => `${year}-06-${day.padStart(2, "0")}`)
    .replace(/\b(\d{1,2})\/06\/2026\b/g, (_, day: string) => `${year}-06-${day.padStart(2, "0")}`)
    .replace(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) June\b/g, (_, day: string) => `${year}-06-${day.padStart(2, "0")}`);
  const path = join(dir, `events-${year}.csv`);
  writeFileSync(path, csv);
  return path;
}

export async function startProxiedService(prefix: string, env: Record<string, string> = {}): Promise<ProxiedService> {
  const shared = TEST_DATABASE_URL ? await serverDatabase(TEST_DATABASE_URL, `finder_${prefix}`) : await pgliteServer();
  const target = new URL(shared.url);
  const proxyPort = freePort();
  const proxy = tcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, proxyPort);
  await proxy.start();
  const viaProxy = new URL(shared.url);
  viaProxy.host = `127.0.0.1:${proxyPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), `finder-${prefix}-`));
  const cleanUp = async () => {
    await proxy.kill();
    await shared.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let service: RunningService;
  try {
    service = await spawnService({
      DATA_MODE: "remote",
      DATABASE_URL: viaProxy.toString(),
      LOCAL_EVENTS_CSV: currentEditionSheet(dataDir),
      DATA_DIR: dataDir,
      AUTH_SECRET: "p".repeat(40),
      TRUSTED_PROXIES: "loopback",
      NEXT_PUBLIC_SITE_URL: "http://finder.test",
      ...env,
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const { child, output, base } = service;
  const stop = async () => {
    proxy.flow();
    child.kill("SIGTERM");
    await Promise.race([child.exited, Bun.sleep(10_000)]);
    await cleanUp();
  };
  return { shared, proxy, base, output, stop };
}
