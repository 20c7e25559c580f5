// The Dockerfile's install and start steps, run outside a container (this machine has none): its
// COPY, RUN, ENV, HEALTHCHECK and CMD instructions, read from the file, are carried out in a
// folder standing for the image's /app, with the build context filtered by .dockerignore. The
// lockfile install (npm ci) must succeed, the image's start command must serve the site, and the
// HEALTHCHECK command must pass against it. What only a container gives is left out and said so:
// the user switch and the chown (this runs as the current user).
//
// The database: production mode needs a Postgres server. With TEST_DATABASE_URL, a database of its
// own on that server; without it, an in-memory PGlite served over the Postgres wire protocol.

import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { servePgliteOverWire } from "../helpers/pglite-wire.ts";
import { dockerignore, envPairs, execForm, readStages, ROOT } from "../helpers/dockerfile.ts";
import { freePort } from "../helpers/processes.ts";

const IMAGE_ROOT = "/app";
const work = mkdtempSync(join(tmpdir(), "finder-docker-steps-"));
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

/** A Postgres database for the production start (see the header). */
async function database(): Promise<string> {
  if (TEST_DATABASE_URL) {
    const name = `finder_docker_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    cleanups.push(async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    });
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  }
  const db = await PGlite.create();
  const server = await servePgliteOverWire(db);
  cleanups.push(async () => {
    await server.close();
    await db.close();
  });
  return server.url;
}

/** Maps the image's /app paths into the stand-in folder of a stage. */
function local(path: string, folder: string): string {
  return path.startsWith(IMAGE_ROOT) ? join(folder, path.slice(IMAGE_ROOT.length)) : join(folder, path);
}

/** The build context as Docker sends it: the checkout less the top-level names .dockerignore lists. */
function copyContext(to: string, sources: string[]): void {
  const ignored = new Set(dockerignore());
  for (const source of sources) {
    const names = source === "." ? readdirSync(ROOT).filter((name) => !ignored.has(name)) : [source.replace(/\*$/, "")];
    for (const name of names) {
      if (ignored.has(name)) continue;
      try {
        cpSync(join(ROOT, name), join(to, name), { recursive: true });
      } catch (error) {
        // `bun.lock*` style globs may match nothing, as in Docker.
        if (!source.includes("*")) throw error;
      }
    }
  }
}

/** A shell command of a RUN, in the stage's folder, with Bun on the PATH (the Bun image has it). */
async function run(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn(["sh", "-c", command], {
    cwd,
    env: {
      ...env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
      HOME: process.env.HOME ?? "/tmp",
      // The registry answers from the machine's npm cache when it can (the install itself is the
      // same `npm ci`).
      npm_config_prefer_offline: "true",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: `${out}\n${err}` };
}

describe("Dockerfile steps outside a container", () => {
  test("npm ci from the lockfile, the image's build steps, its start command serves / and its HEALTHCHECK passes", async () => {
    const stages = readStages();
    const folders = new Map<string, string>();
    const skipped: string[] = [];
    let env: Record<string, string> = {};
    let cmd: string[] | undefined;
    let healthcheck: string[] | undefined;
    for (const [index, stage] of stages.entries()) {
      const folder = join(work, stage.name ?? `stage-${index}`);
      folders.set(stage.name ?? String(index), folder);
      let cwd = folder;
      env = {};
      for (const instruction of stage.instructions) {
        switch (instruction.keyword) {
          case "WORKDIR":
            cwd = local(instruction.args, folder);
            Bun.spawnSync(["mkdir", "-p", cwd]);
            break;
          case "COPY": {
            const parts = instruction.args.split(/\s+/);
            const from = parts[0]!.startsWith("--from=") ? parts.shift()!.slice("--from=".length) : undefined;
            const target = local(parts.pop()!, cwd);
            if (from) cpSync(local(parts[0]!, folders.get(from)!), target.endsWith("/") ? join(target, parts[0]!) : target, { recursive: true });
            else copyContext(cwd === target.replace(/\/$/, "").replace(/\/\.$/, "") ? cwd : target, parts);
            break;
          }
          case "ENV":
            env = { ...env, ...envPairs(instruction.args) };
            break;
          case "RUN": {
            // Users and ownership are a container's: this runs as the current user.
            if (/\bchown\b|\buseradd\b|\badduser\b/.test(instruction.args)) {
              skipped.push(instruction.args);
              break;
            }
            const result = await run(instruction.args.replaceAll(IMAGE_ROOT, folder), cwd, env);
            if (result.code !== 0) throw new Error(`RUN ${instruction.args} failed (${result.code}):\n${result.output}`);
            break;
          }
          case "CMD":
            cmd = execForm(instruction.args);
            break;
          case "HEALTHCHECK":
            healthcheck = execForm(instruction.args.slice(instruction.args.indexOf("CMD ") + 4));
            break;
        }
      }
    }
    expect(skipped.every((args) => args.includes("chown"))).toBe(true);
    const app = [...folders.values()].at(-1)!;
    // The install is the lockfile's: the pinned Elysia, and no devDependency.
    const lock = JSON.parse(await Bun.file(join(ROOT, "package-lock.json")).text()) as { packages: Record<string, { version: string }> };
    const installed = JSON.parse(await Bun.file(join(app, "node_modules/elysia/package.json")).text()) as { version: string };
    expect(installed.version).toBe(lock.packages["node_modules/elysia"]!.version);
    for (const devOnly of ["fast-check", "playwright-core", "drizzle-kit"]) expect(readdirSync(join(app, "node_modules")).includes(devOnly)).toBe(false);

    expect(cmd).toBeDefined();
    expect(healthcheck).toBeDefined();
    const port = freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "finder-docker-data-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const runtimeEnv = {
      ...env,
      // What `docker run -e …` gives (the Dockerfile says which settings are the operator's).
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATA_MODE: "remote",
      DATABASE_URL: await database(),
      AUTH_SECRET: "d".repeat(40),
      TRUSTED_PROXIES: "none",
      CRON_ENABLED: "false",
    };
    const paths = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`, HOME: process.env.HOME ?? "/tmp" };
    const health = () => Bun.spawn(healthcheck!, { cwd: app, env: { ...runtimeEnv, ...paths }, stdout: "ignore", stderr: "ignore" }).exited;
    // Nothing listens yet: the health check must be able to fail.
    expect(await health()).not.toBe(0);
    const server = Bun.spawn(cmd!, { cwd: app, env: { ...runtimeEnv, ...paths }, stdout: "pipe", stderr: "pipe" });
    cleanups.push(async () => {
      server.kill("SIGKILL");
      await server.exited;
    });
    let healthy = false;
    for (let i = 0; i < 120 && !healthy && server.exitCode === null; i++) {
      healthy = (await health()) === 0;
      if (!healthy) await Bun.sleep(250);
    }
    if (!healthy) throw new Error(`the image's start never passed its HEALTHCHECK:\n${await new Response(server.stderr).text()}`);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 240_000);
});
