// How the embedded database starts. PGlite is Postgres compiled to WebAssembly: opening it
// compiles a 9 MB module, then boots Postgres in single-user mode inside it. This module holds the
// two things the process does about that, and loads nothing heavy so the entry can use it first.

import { readFile } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";

let compiling: Promise<WebAssembly.Module | undefined> | undefined;

/** The module file the package ships beside its entry file (PGlite finds it the same way). */
function wasmUrl(): URL {
  return new URL("./pglite.wasm", import.meta.resolve("@electric-sql/pglite"));
}

/** Compiles on a worker thread and receives the compiled module. */
function compileInWorker(): Promise<WebAssembly.Module> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./pglite-wasm.worker.ts", import.meta.url));
    worker.onmessage = (event: MessageEvent<unknown>) => {
      void worker.terminate();
      if (event.data instanceof WebAssembly.Module) resolve(event.data);
      else reject(new Error((event.data as { error?: string } | null)?.error ?? "no module from the compile worker"));
    };
    worker.onerror = (event) => {
      void worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage(wasmUrl().href);
  });
}

async function compileHere(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(wasmUrl()));
}

/**
 * PGlite's WebAssembly module, compiled once per process. Left to itself PGlite compiles it inside
 * `PGlite.create` on the main thread (about 0.4 s), after the server's modules have loaded. The
 * process entry calls this first thing instead: a worker thread reads and compiles the module
 * while the main thread loads the server (even `WebAssembly.compile` parses and validates 9 MB on
 * the calling thread before it goes on in the background). Compiled here when no worker can, and
 * undefined when the file cannot be read or compiled: PGlite then loads it its own way (and
 * reports the problem itself).
 */
export function compilePgliteWasm(): Promise<WebAssembly.Module | undefined> {
  compiling ??= compileInWorker()
    .catch(() => compileHere())
    .catch(() => undefined);
  return compiling;
}

/**
 * Server settings added to PGlite's own start parameters. The embedded engine runs one
 * single-user backend over a small database (development, tests, a laptop: production uses a
 * Postgres server), and at every boot Postgres sets up its whole shared memory, which inside
 * WebAssembly costs in proportion to its size:
 * - `shared_buffers`: the buffer cache, most of that memory. The default 128 MB took about 0.6 s
 *   to set up at each start; 8 MB takes a few hundredths. A page that does not fit is read again
 *   from the data folder, which the operating system keeps cached.
 * - `max_connections`: the per-connection structures (process slots, lock and predicate-lock
 *   tables) are sized for 100 connections by default; one backend needs one. 10 keeps room for
 *   the superuser-reserved slots (3) and still sizes the lock table for thousands of locks.
 */
export const PGLITE_SETTINGS: readonly string[] = ["shared_buffers=8MB", "max_connections=10"];

/** Starts PGlite on a data folder (in memory without one), with the early compile and the settings above. */
export async function createPglite(dataDir?: string): Promise<PGlite> {
  const [{ PGlite }, pgliteWasmModule] = await Promise.all([import("@electric-sql/pglite"), compilePgliteWasm()]);
  return PGlite.create({
    dataDir,
    pgliteWasmModule,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
  });
}
