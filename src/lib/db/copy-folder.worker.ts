// Copies a folder on a worker thread (see copyPgliteTemplate). The main thread has a server to load
// meanwhile, and copying a database template is a few hundred file creations: fs.promises.cp does
// them one promise at a time (about 0.3 s of CPU for the template), the synchronous copy used here
// in well under half that, and blocking is harmless on a thread that does nothing else.

import { cpSync } from "node:fs";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ from: string; to: string }>) => {
  try {
    cpSync(event.data.from, event.data.to, { recursive: true });
    self.postMessage({ ok: true });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
};
