// Test-process setup: a quiet, deterministic environment and cleanup of the shared database.

import { afterAll } from "bun:test";
import { disposeSharedDatabase } from "./database.ts";

process.env.TZ = "UTC";

afterAll(async () => {
  await disposeSharedDatabase();
});
