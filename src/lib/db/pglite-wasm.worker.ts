// Compiles PGlite's WebAssembly module off the main thread (see pglite-boot.ts) and hands the
// compiled module back: a WebAssembly.Module crosses threads without being compiled again.

import { readFile } from "node:fs/promises";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    self.postMessage(await WebAssembly.compile(await readFile(new URL(event.data))));
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
