// How the embedded database starts. PGlite is Postgres compiled to WebAssembly: opening it
// compiles a 9 MB module, then boots Postgres in single-user mode inside it. This module holds the
// two things the process does about that, and loads nothing heavy so the entry can use it first.

import { readFile } from "node:fs/promises";

let compiling: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * PGlite's WebAssembly module, compiled once per process. The process entry calls it first thing:
 * `WebAssembly.compile` does most of its work on a runtime thread of its own, so the compile
 * overlaps the loading of the server's modules. Left to itself PGlite compiles the module inside
 * `PGlite.create`, on the main thread (about 0.4 s), after the server's modules have loaded.
 * Undefined when the file cannot be read or compiled: PGlite then loads it its own way (and
 * reports the problem itself).
 */
export function compilePgliteWasm(): Promise<WebAssembly.Module | undefined> {
  compiling ??= (async () => {
    // The package ships the module beside its entry file (PGlite finds it the same way).
    const url = new URL("./pglite.wasm", import.meta.resolve("@electric-sql/pglite"));
    return WebAssembly.compile(await readFile(url));
  })().catch(() => undefined);
  return compiling;
}

/**
 * Server settings added to PGlite's own start parameters. The embedded engine runs one
 * single-user backend over a small database (development, tests, a laptop: production uses a
 * Postgres server). At boot Postgres zeroes its whole shared memory, most of it the buffer
 * cache: inside WebAssembly that took about 0.6 s for the default 128 MB, against under 0.1 s for
 * 16 MB. A page that does not fit is read again from the data folder, which the operating system
 * keeps cached.
 */
export const PGLITE_SETTINGS: readonly string[] = ["shared_buffers=16MB"];
