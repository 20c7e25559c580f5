// Cold start of the real process, measured from outside: spawn `bun src/index.ts` to the first 200
// on `/`, median of 3, on a fresh DATA_DIR (the embedded database is copied from its template: the
// seeded one when the install made it from data/events.csv, so the start skips its seed) and on an
// existing one. Two baselines run in the same rounds, interleaved with it:
// - the floor: the embedded database started alone, the way the server starts it, on the same kind
//   of folder (bench/servers/database-alone.server.ts), then a bare server answering 200;
// - a bare Bun.serve script: the runtime's own start.
// What the real start takes beyond the floor is the service's own work (its modules, migrations
// check, seeding, routes, the first render).
//
// Not pinned to a core, unlike the load benchmarks: a cold start has no load generator beside it
// (the "server alone on the machine"), and the start itself uses more than one thread
// (PGlite's module compiles on a worker while the main thread loads the server). Pinned to one core
// the two would queue behind each other and the figure would describe no real start. The
// bench runner pins itself to the load core and a child inherits that, so each start is given
// every core back; this process only polls `/` every 10 ms meanwhile.

import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR, median, ROOT } from "./lib.ts";
import { freePort } from "../test/helpers/processes.ts";

/** Every core of the machine (this process's own affinity is narrower: the runner pins it). */
const EVERY_CORE = Bun.which("taskset") ? ["taskset", "-c", `0-${cpus().length - 1}`] : [];

/** Milliseconds from spawn to the first 200 on `/`; the process is stopped afterwards. */
async function timeToFirst200(command: string[], env: Record<string, string>): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const proc = Bun.spawn([...EVERY_CORE, ...command], {
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
  const bare = [process.execPath, join(BENCH_DIR, "servers/hello.server.ts")];
  const floor = [process.execPath, join(BENCH_DIR, "servers/database-alone.server.ts")];
  const server = [process.execPath, "src/index.ts"];
  const env = { CRON_ENABLED: "false", LOG_LEVEL: "error" };
  const runs = { bare: [] as number[], floorFresh: [] as number[], floorExisting: [] as number[], fresh: [] as number[], existing: [] as number[] };
  const loadBefore = loadavg()[0]!;
  for (let i = 0; i < 3; i++) {
    runs.bare.push(await timeToFirst200(bare, {}));
    const floorDir = mkdtempSync(join(tmpdir(), "finder-bench-floor-"));
    const dataDir = mkdtempSync(join(tmpdir(), "finder-bench-cold-"));
    try {
      runs.floorFresh.push(await timeToFirst200(floor, { DATA_DIR: floorDir }));
      runs.fresh.push(await timeToFirst200(server, { ...env, DATA_DIR: dataDir }));
      runs.floorExisting.push(await timeToFirst200(floor, { DATA_DIR: floorDir }));
      runs.existing.push(await timeToFirst200(server, { ...env, DATA_DIR: dataDir }));
    } finally {
      rmSync(floorDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const ms = (values: number[]) => `${median(values).toFixed(0).padStart(5)} ms`;
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
  const line = (name: string, values: number[], floorValues: number[]) =>
    console.log(
      `${name.padEnd(52)} median ${ms(values)}  (runs ${list(values)})  | database alone ${ms(floorValues)} (runs ${list(floorValues)}), the rest ${(median(values) - median(floorValues)).toFixed(0)} ms | bare Bun.serve ${ms(runs.bare)}`,
    );
  line("cold start: spawn to first 200 on / (fresh DATA_DIR)", runs.fresh, runs.floorFresh);
  line("cold start: spawn to first 200 on / (existing DATA_DIR)", runs.existing, runs.floorExisting);
  console.log(`cold start: load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after, ${cpus().length} cores (the figures hold only for a quiet machine)`);
}
