// Cold start of the real process, measured from outside: spawn `bun src/index.ts` to the first 200
// on `/`, median of 3, on a fresh DATA_DIR (the embedded database is created) and on an existing one.
// Beside it, the same spawn of a bare Bun.serve script (the runtime's own start-up), same run.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, pinned, ROOT, SERVER_CPU } from "./lib.ts";

function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/** Milliseconds from spawn to the first 200 on `/`; the process is stopped afterwards. */
async function timeToFirst200(command: string[], env: Record<string, string>): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const proc = Bun.spawn(pinned(SERVER_CPU, command), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status === 200, () => false);
      if (ok) return performance.now() - started;
      if (proc.exitCode !== null) throw new Error(`${command.join(" ")} exited with ${proc.exitCode}`);
      await Bun.sleep(10);
    }
    throw new Error(`${command.join(" ")} gave no 200 on / within 60 s`);
  } finally {
    proc.kill("SIGTERM");
    await Promise.race([proc.exited, Bun.sleep(15_000)]);
    if (proc.exitCode === null) proc.kill("SIGKILL");
  }
}

export async function benchColdStart(): Promise<void> {
  const bare = join(ROOT, "bench/servers/hello.server.ts");
  const baseline: number[] = [];
  const fresh: number[] = [];
  const existing: number[] = [];
  const env = { CRON_ENABLED: "false", LOG_LEVEL: "error" };
  for (let i = 0; i < 3; i++) baseline.push(await timeToFirst200([process.execPath, bare], {}));
  for (let i = 0; i < 3; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "finder-bench-cold-"));
    try {
      fresh.push(await timeToFirst200([process.execPath, "src/index.ts"], { ...env, DATA_DIR: dataDir }));
      existing.push(await timeToFirst200([process.execPath, "src/index.ts"], { ...env, DATA_DIR: dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const line = (name: string, values: number[]) =>
    console.log(`${name.padEnd(52)} median ${median(values).toFixed(0).padStart(5)} ms  (runs ${values.map((v) => v.toFixed(0)).join(", ")})  | bare Bun.serve start ${median(baseline).toFixed(0)} ms`);
  line("cold start: spawn to first 200 on / (fresh DATA_DIR)", fresh);
  line("cold start: spawn to first 200 on / (existing DATA_DIR)", existing);
}
