// Starts the real process (bun src/index.ts) to check startup errors, the ready line and SIGTERM.

import { PREVIEW_COOKIE } from "../../src/lib/preview-clock.ts";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/processes.ts";

const ROOT = join(import.meta.dir, "../..");

function spawnService(env: Record<string, string>) {
  return Bun.spawn([process.execPath, "src/index.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function waitForHealth(port: number, timeoutMs = 40000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return true;
    } catch {}
    await Bun.sleep(100);
  }
  return false;
}

describe("process", () => {
  test("production without required settings exits non-zero naming every problem", async () => {
    const child = spawnService({ NODE_ENV: "production", AUTH_SECRET: "too-short" });
    const code = await child.exited;
    const stderr = await new Response(child.stderr).text();
    expect(code).toBe(1);
    expect(stderr).toContain("DATA_MODE is required in production");
    expect(stderr).toContain("DATABASE_URL (or POSTGRES_URL) is required in production");
    expect(stderr).toContain("AUTH_SECRET must be at least 32 characters");
    expect(stderr).toContain("TRUSTED_PROXIES is required in production");
    expect(stderr).not.toContain("too-short");
  });

  test("starts with no environment, answers health, logs the ready line and stops cleanly on SIGTERM", async () => {
    const port = freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "finder-proc-"));
    const child = spawnService({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", DATA_MODE: "test", AUTH_SECRET: "p".repeat(40), TRUSTED_PROXIES: "none", CRON_ENABLED: "false" });
    try {
      expect(await waitForHealth(port)).toBe(true);
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
      const stdout = await new Response(child.stdout).text();
      const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.some((l) => l.message === `[finder] Ready at http://127.0.0.1:${port}/ | data=test | db=embedded (in memory) | console=off (set ADMIN_KEY to enable /admin) | geocoding=arrondissement-fallback`)).toBe(true);
      expect(lines.at(-1).message).toBe("Stopped cleanly");
      for (const line of lines) expect(Object.keys(line).slice(0, 3)).toEqual(["level", "scope", "message"]);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60000);

  test("the embedded database keeps its data in DATA_DIR across restarts: the store is seeded once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "finder-restart-"));
    const run = async () => {
      const port = freePort();
      const child = spawnService({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, CRON_ENABLED: "false", NODE_ENV: "test", DATA_MODE: "remote", AUTH_SECRET: "r".repeat(40) });
      try {
        expect(await waitForHealth(port, 30000)).toBe(true);
        const events = await (await fetch(`http://127.0.0.1:${port}/api/events`)).json();
        child.kill("SIGTERM");
        expect(await child.exited).toBe(0);
        return { stdout: await new Response(child.stdout).text(), count: events.count as number };
      } finally {
        child.kill("SIGKILL");
      }
    };
    const first = await run();
    const second = await run();
    expect(first.stdout).toContain("Seeded the event store from the local CSV");
    expect(second.stdout).not.toContain("Seeded the event store");
    expect(first.count).toBeGreaterThan(70);
    expect(second.count).toBe(first.count);
  }, 90000);

  test("a first start as `npm start` runs it (development, fresh DATA_DIR): its first 200 on / already lists the seeded events", async () => {
    const port = freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "finder-first-"));
    // No NODE_ENV, DATA_MODE or AUTH_SECRET: the defaults of `npm start`.
    const child = spawnService({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, CRON_ENABLED: "false" });
    try {
      const deadline = Date.now() + 40_000;
      let first: Response | undefined;
      while (!first && Date.now() < deadline) {
        // Read at a minute before the sheet's own edition (the preview clock of development), so
        // the homepage lists that edition's events in sheet order whatever today's date
        // (docs/editions.md).
        first = await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie: `${PREVIEW_COOKIE}=${encodeURIComponent("2026-06-10T12:00")}` } }).then((r) => (r.status === 200 ? r : undefined), () => undefined);
        if (!first) await Bun.sleep(20);
      }
      expect(first?.status).toBe(200);
      const html = await first!.text();
      // Events of data/events.csv, the local sheet a first start is seeded from.
      expect(html).toContain("Riverside Soca Warm-Up");
      expect(html).toContain("Le Sentier Jazz-Funk Night");
    } finally {
      child.kill("SIGKILL");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);

  test("an unreachable database stops startup with the cause named, never the connection string", async () => {
    const refused = spawnService({ NODE_ENV: "production", DATA_MODE: "remote", AUTH_SECRET: "p".repeat(40), TRUSTED_PROXIES: "none", DATABASE_URL: `postgres://finder:hunter2-secret@127.0.0.1:${freePort()}/finder` });
    expect(await refused.exited).toBe(1);
    const refusedText = await new Response(refused.stderr).text();
    expect(refusedText).toContain("Startup failed: database unreachable: ECONNREFUSED at 127.0.0.1:");
    expect(refusedText).not.toContain("hunter2-secret");

    // A server that accepts the connection and never answers: the connect timeout (5 s) names it.
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const hung = spawnService({ NODE_ENV: "production", DATA_MODE: "remote", AUTH_SECRET: "p".repeat(40), TRUSTED_PROXIES: "none", DATABASE_URL: `postgres://finder:hunter2-secret@127.0.0.1:${silent.port}/finder` });
      expect(await hung.exited).toBe(1);
      const hungText = await new Response(hung.stderr).text();
      expect(hungText).toContain(`Startup failed: database unreachable: connection timed out (CONNECT_TIMEOUT) at 127.0.0.1:${silent.port}`);
      expect(hungText).not.toContain("hunter2-secret");
    } finally {
      silent.stop(true);
    }
  }, 30_000);

  test("one process per port: a second instance on a busy port exits 1 with a clear message, the first keeps serving", async () => {
    const port = freePort();
    const env = (dir: string) => ({ PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, NODE_ENV: "production", DATA_MODE: "test", AUTH_SECRET: "q".repeat(40), TRUSTED_PROXIES: "none", CRON_ENABLED: "false" });
    const first = spawnService(env(mkdtempSync(join(tmpdir(), "finder-port-a-"))));
    try {
      expect(await waitForHealth(port, 120000)).toBe(true);
      const second = spawnService(env(mkdtempSync(join(tmpdir(), "finder-port-b-"))));
      try {
        expect(await second.exited).toBe(1);
        expect(await new Response(second.stderr).text()).toContain(`[finder] Startup failed: port ${port} on 127.0.0.1 is already in use`);
      } finally {
        second.kill("SIGKILL");
      }
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      first.kill("SIGTERM");
      expect(await first.exited).toBe(0);
    } finally {
      first.kill("SIGKILL");
    }
  }, 300000);
});
