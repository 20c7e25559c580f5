// How the embedded database starts. PGlite is Postgres compiled to WebAssembly: opening it
// compiles a 9 MB module, loads a 6 MB bundle of Postgres's own files, then boots Postgres in
// single-user mode. This module has both files read early, off the main thread, and holds the
// settings that make the boot cheap. It loads nothing heavy, so the process entry can use it
// first (see docs/operations.md, "Startup and shutdown").

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/** What the worker hands back: the compiled module, and the file-system bundle's bytes. */
interface PgliteFiles {
  module?: WebAssembly.Module;
  bundle?: ArrayBuffer;
}

let loading: Promise<PgliteFiles> | undefined;

/** A file the package ships beside its entry file (PGlite finds them the same way). */
function packageFile(name: string): URL {
  return new URL(`./${name}`, import.meta.resolve("@electric-sql/pglite"));
}

/** Reads and compiles on a worker thread. */
function loadInWorker(): Promise<PgliteFiles> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./pglite-files.worker.ts", import.meta.url));
    worker.onmessage = (event: MessageEvent<{ module?: unknown; bundle?: unknown; error?: string }>) => {
      void worker.terminate();
      const { module, bundle } = event.data;
      if (module instanceof WebAssembly.Module && bundle instanceof ArrayBuffer) resolve({ module, bundle });
      else reject(new Error(event.data.error ?? "nothing usable from the PGlite worker"));
    };
    worker.onerror = (event) => {
      void worker.terminate();
      reject(new Error(event.message));
    };
    // A worker that ends without answering (a settled promise ignores this).
    worker.addEventListener("close", () => reject(new Error("the PGlite worker stopped")));
    worker.postMessage({ wasm: packageFile("pglite.wasm").href, bundle: packageFile("pglite.data").href });
  });
}

async function compileHere(): Promise<PgliteFiles> {
  return { module: await WebAssembly.compile(await readFile(packageFile("pglite.wasm"))) };
}

/**
 * PGlite's files, read once per process. Left to itself PGlite compiles its WebAssembly module
 * inside `PGlite.create` on the main thread (about 0.4 s), after the server's modules have
 * loaded, then reads its 6 MB file-system bundle. The process entry calls this first thing
 * instead: a worker thread compiles the module and reads the bundle while the main thread loads
 * the server (even `WebAssembly.compile` parses and validates 9 MB on the calling thread before
 * it goes on in the background). Compiled here when no worker can; without the files, PGlite
 * loads them its own way (and reports a problem itself).
 */
export function loadPgliteFiles(): Promise<PgliteFiles> {
  loading ??= loadInWorker()
    .catch(() => compileHere())
    .catch(() => ({}));
  return loading;
}

/**
 * The bundle already read, as the Blob PGlite takes (`fsBundle`): PGlite only asks a bundle for
 * its bytes, and these were read, and handed over without a copy, by the worker.
 */
class ReadBundle extends Blob {
  readonly #content: ArrayBuffer;
  constructor(content: ArrayBuffer) {
    super();
    this.#content = content;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#content);
  }
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

/** The PGlite data folder inside DATA_DIR (here, not in pglite-template.ts: the client needs it, and the template builder loads the client). */
export function pgliteDataFolder(dataDir: string): string {
  return join(dataDir, "pgdata");
}

/**
 * Starts PGlite on a data folder (in memory without one), with the files read early and the
 * settings above. The bundle's bytes go to the first instance only: Postgres's in-memory files
 * may keep using them, so a later instance (the tests open several) has PGlite read its own.
 */
export async function createPglite(dataDir?: string): Promise<PGlite> {
  const [{ PGlite }, files] = await Promise.all([import("@electric-sql/pglite"), loadPgliteFiles()]);
  const bundle = files.bundle;
  files.bundle = undefined;
  return PGlite.create({
    dataDir,
    pgliteWasmModule: files.module,
    fsBundle: bundle ? new ReadBundle(bundle) : undefined,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
  });
}
