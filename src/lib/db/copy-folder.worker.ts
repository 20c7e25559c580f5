// Copies a folder on a worker thread (see copyPgliteTemplate): fs.promises.cp works file by file
// through promises, and for the few hundred files of a database template that kept the main thread
// busy for about 50 ms while it had a server to load.

import { cp } from "node:fs/promises";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ from: string; to: string }>) => {
  try {
    await cp(event.data.from, event.data.to, { recursive: true });
    self.postMessage({ ok: true });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
};
