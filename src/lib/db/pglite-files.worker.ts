// Reads PGlite's files off the main thread (see pglite-boot.ts): compiles the WebAssembly module
// and reads the file-system bundle, then hands both back. A compiled WebAssembly.Module crosses
// threads without being compiled again; the bundle's bytes are transferred, not copied.

declare const self: Worker;
export {};

self.onmessage = async (event: MessageEvent<{ wasm: string; bundle: string }>) => {
  try {
    const compiling = WebAssembly.compile(await Bun.file(new URL(event.data.wasm)).arrayBuffer());
    const bundle = await Bun.file(new URL(event.data.bundle)).arrayBuffer();
    self.postMessage({ module: await compiling, bundle }, [bundle]);
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
