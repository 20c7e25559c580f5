// The real process behind the front ends operators put before it (docs/operations.md, "Behind a
// proxy"): a real nginx in appending mode ($proxy_add_x_forwarded_for) and a plain TCP forwarder
// that adds no header. A client rotating its own X-Forwarded-For on every admin login attempt
// never escapes the per-IP login limit through either: the 11th wrong key is 429.
//
// nginx is the Debian package (`apt-get install -y nginx`; .ci/run installs it); NGINX names
// another binary. Without one the test fails saying so.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { RATE_LIMITS } from "../../src/lib/rate-limit/fixed-window.ts";
import { findNginx, freePort, nginxConfig } from "../helpers/edge.ts";

const ROOT = join(import.meta.dir, "../..");
const ADMIN_KEY = "front-ends-admin-key-0123456789-0123456789";
// nginx connects to the service from 127.0.0.3 (proxy_bind), the only trusted proxy; the TCP
// forwarder connects from 127.0.0.2, which is not trusted, as an L4 balancer must not be.
const NGINX_SOURCE = "127.0.0.3";
const FORWARDER_SOURCE = "127.0.0.2";

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

let dir: string;
let service: Subprocess<"ignore", "pipe", "pipe"> | undefined;
let nginx: Subprocess<"ignore", "pipe", "pipe"> | undefined;
let forwarder: net.Server | undefined;
let servicePort: number;
let nginxPort: number;
let forwarderPort: number;
let serviceLog = "";

beforeAll(async () => {
  const nginxBinary = findNginx();
  dir = mkdtempSync(join(tmpdir(), "finder-front-ends-"));
  servicePort = freePort();
  service = Bun.spawn([process.execPath, "src/index.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      DATA_MODE: "test",
      DATA_DIR: join(dir, "data"),
      AUTH_SECRET: "f".repeat(40),
      ADMIN_KEY,
      TRUSTED_PROXIES: NGINX_SOURCE,
      CRON_ENABLED: "false",
      PORT: String(servicePort),
      HOST: "127.0.0.1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  void (async () => {
    const reader = service!.stdout.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      serviceLog += decoder.decode(value);
    }
  })();

  nginxPort = freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    nginxConfig(
      dir,
      `  server {
    listen 127.0.0.1:${nginxPort};
    location / {
      proxy_pass http://127.0.0.1:${servicePort};
      proxy_bind ${NGINX_SOURCE};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`,
    ),
  );
  nginx = Bun.spawn([nginxBinary, "-p", dir, "-c", conf], { stdout: "pipe", stderr: "pipe" });

  forwarder = net.createServer((client) => {
    const upstream = net.connect({ host: "127.0.0.1", port: servicePort, localAddress: FORWARDER_SOURCE });
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => forwarder!.listen(0, "127.0.0.1", resolve));
  forwarderPort = (forwarder.address() as net.AddressInfo).port;

  await waitFor(`http://127.0.0.1:${servicePort}/api/health`, 40_000);
  await waitFor(`http://127.0.0.1:${nginxPort}/api/health`, 10_000);
}, 60_000);

afterAll(async () => {
  nginx?.kill("SIGTERM");
  service?.kill("SIGTERM");
  forwarder?.close();
  await Promise.all([nginx?.exited, service?.exited]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let rotation = 0;
/** A wrong admin login sent through `port`, with a fresh forged X-Forwarded-For each time. */
async function wrongLogin(port: number): Promise<number> {
  rotation++;
  const res = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `203.0.${rotation >> 8}.${rotation & 255}`, "x-real-ip": `198.51.100.${rotation & 255}` },
    body: JSON.stringify({ key: `guess-${rotation}` }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe("behind real front ends, a client rotating X-Forwarded-For stays one client", () => {
  const limit = RATE_LIMITS.adminLoginIp.limit;

  test("nginx appending to X-Forwarded-For: the 11th wrong admin login is 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i++) statuses.push(await wrongLogin(nginxPort));
    expect(statuses).toEqual([...Array(limit).fill(401), 429, 429, 429]);
  }, 20_000);

  test("a plain TCP forwarder (not a trusted proxy): the 11th wrong admin login is 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i++) statuses.push(await wrongLogin(forwarderPort));
    expect(statuses).toEqual([...Array(limit).fill(401), 429, 429, 429]);
    expect(serviceLog).not.toContain("203.0.");
  }, 20_000);
});
