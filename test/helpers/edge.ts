// A shared cache in front of the service, as docs/operations.md ("Behind a shared cache") draws
// it: N service processes (bun src/index.ts) on one database behind a real nginx (Debian package)
// with proxy_cache. Used by test/process/shared-cache.test.ts and bench/edge.bench.ts.

import { currentEditionSheet } from "./processes.ts";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drainOutput, freePort, pgliteServer, serverDatabase } from "./processes.ts";

export { freePort };
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "../..");
export const EDGE_ADMIN_KEY = "edge-admin-key-c81e5b07d94f2a6e3b1d8c4f70a9e25d";

export function findNginx(): string {
  const candidates = [process.env.NGINX, "/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"].filter(Boolean) as string[];
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  }
  throw new Error(`nginx not found (looked at ${candidates.join(", ")}): install the Debian package with \`apt-get install -y nginx\` or set NGINX to its binary`);
}


/**
 * A whole nginx configuration for a test: in the foreground, one worker, every temp folder and the
 * pid file under `dir`, errors to stderr; `http` is what goes inside the http block (the servers).
 */
export function nginxConfig(dir: string, http: string): string {
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${http}
}
`;
}

/**
 * The nginx site of docs/operations.md ("Behind a shared cache"), for a cache folder and the
 * instances' addresses: the cache key is the URL (the language is in it) plus HX-Request, s-maxage
 * and stale-while-revalidate come from the service, one refresh at a time per key in the
 * background, and a visitor still holding the former switch's `lang` cookie goes to the service
 * (which redirects and clears it).
 */
export function nginxSite(options: { cacheDir: string; upstreams: string[]; listen: string }): string {
  return `proxy_cache_path ${options.cacheDir} levels=1:2 keys_zone=finder:10m max_size=256m inactive=10m use_temp_path=off;
upstream finder {
${options.upstreams.map((address) => `  server ${address};`).join("\n")}
  keepalive 32;
}
server {
  listen ${options.listen};
  location / {
    proxy_pass http://finder;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_cache finder;
    proxy_cache_key $scheme$host$request_uri$http_hx_request;
    proxy_cache_lock on;
    proxy_cache_background_update on;
    proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
    proxy_cache_bypass $cookie_lang;
    proxy_no_cache $cookie_lang;
    add_header X-Edge-Cache $upstream_cache_status always;
  }
}`;
}

export interface EdgeService {
  port: number;
  url: string;
  child: Subprocess<"ignore", "pipe", "pipe">;
  output(): string;
}

export interface Edge {
  url: string;
  services: EdgeService[];
  /** The database the services share: "postgres", or "pglite" (one process on an in-memory PGlite served over the wire). */
  database: string;
  stop(): Promise<void>;
}

async function waitFor(url: string, timeoutMs: number, child?: Subprocess<"ignore", "pipe", "pipe">): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) break;
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}


async function startService(dir: string, index: number, databaseUrl: string | undefined, wrap: (command: string[]) => string[]): Promise<EdgeService> {
  const port = freePort();
  const child = Bun.spawn(wrap([process.execPath, "src/index.ts"]), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      DATA_MODE: "remote",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: join(dir, `data-${index}`),
      // The sample sheet dated in the current edition: the homepage lists that edition only.
      LOCAL_EVENTS_CSV: currentEditionSheet(dir),
      AUTH_SECRET: "e".repeat(40),
      ADMIN_KEY: EDGE_ADMIN_KEY,
      TRUSTED_PROXIES: "loopback",
      CRON_ENABLED: "false",
      LOG_LEVEL: "warn",
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = drainOutput(child);
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`, 60_000, child);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`service ${index} did not start: ${(error as Error).message}\n${output()}`);
  }
  return { port, url: `http://127.0.0.1:${port}`, child, output };
}

/**
 * Starts the picture: with `databaseUrl` (a Postgres server) a database of its own there and
 * `instances` processes on it; without, one process on an in-memory PGlite served over the wire
 * from this process (PGlite is one backend: a second process would only queue behind the first).
 * `wrap` lets the bench pin the processes to a core.
 */
export async function startEdge(options: { databaseUrl?: string; instances: number; wrap?: (command: string[]) => string[] }): Promise<Edge> {
  const nginxBinary = findNginx();
  const wrap = options.wrap ?? ((command: string[]) => command);
  const dir = mkdtempSync(join(tmpdir(), "finder-edge-"));
  const shared = options.databaseUrl ? await serverDatabase(options.databaseUrl, "finder_edge") : await pgliteServer();
  const databaseUrl = shared.url;
  const dropDatabase = () => shared.close();
  const count = options.databaseUrl ? options.instances : 1;
  const services: EdgeService[] = [];
  // One after the other: the first seeds the store, the others find it seeded.
  for (let i = 0; i < count; i++) services.push(await startService(dir, i, databaseUrl, wrap));
  const port = freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(conf, nginxConfig(dir, nginxSite({ cacheDir: join(dir, "cache"), upstreams: services.map((s) => `127.0.0.1:${s.port}`), listen: `127.0.0.1:${port}` })));
  const nginx = Bun.spawn(wrap([nginxBinary, "-p", dir, "-c", conf]), { stdout: "pipe", stderr: "pipe" });
  const nginxOutput = drainOutput(nginx);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/api/health`, 10_000, nginx);
  } catch (error) {
    throw new Error(`nginx did not start: ${(error as Error).message}\n${nginxOutput()}`);
  }
  return {
    url,
    services,
    database: options.databaseUrl ? "postgres" : "pglite",
    stop: async () => {
      nginx.kill("SIGTERM");
      for (const service of services) service.child.kill("SIGTERM");
      await Promise.all([nginx.exited, ...services.map((s) => Promise.race([s.child.exited, Bun.sleep(10_000).then(() => s.child.kill("SIGKILL"))]))]);
      await dropDatabase();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Renames the first row of the published sheet through one instance's admin API and publishes it (a rename under a kept key: confirmed). */
export async function publishTitle(service: Pick<EdgeService, "url">, title: string): Promise<void> {
  const headers = { "x-admin-key": EDGE_ADMIN_KEY, "content-type": "application/json" };
  const sheet = (await (await fetch(`${service.url}/api/admin/sheet?offset=0&limit=1`, { headers })).json()) as { rows: { id: string }[]; meta: { revision: number } };
  const res = await fetch(`${service.url}/api/admin/sheet`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ baseRevision: sheet.meta.revision, publish: true, confirm: true, cells: [{ rowId: sheet.rows[0]!.id, key: "title", value: title }] }),
  });
  if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${await res.text()}`);
}
