// Install step: makes the embedded database template so a newcomer's first `npm start` skips initdb.
// Never fails the install: without a template the first start is only slower.

import { buildPgliteTemplate } from "../src/lib/db/pglite-template.ts";

try {
  const started = performance.now();
  const path = await buildPgliteTemplate();
  console.log(`finder: embedded database template ready (${path}, ${Math.round(performance.now() - started)} ms)`);
} catch (error) {
  console.warn(`finder: embedded database template not built (${error instanceof Error ? error.message : String(error)}); the first start will create the database itself`);
}
process.exit(0);
