// /api/health through the real app (its own process) vs a bare Bun.serve process returning the
// same bytes; load from wrk on the other core.

import { at, compareWrk, rawResponse, startBareTwin, startServer } from "./lib.ts";

export async function benchHealth(): Promise<void> {
  const app = await startServer("servers/app.server.ts", [JSON.stringify({ dataMode: "test" })]);
  const response = await rawResponse(`${app.url}/api/health`);
  const bare = await startBareTwin(response.bytes, response.headers);
  try {
    await compareWrk("GET /api/health (app vs bare Bun.serve)", at(app, "/api/health"), at(bare, "/api/health"));
  } finally {
    await bare.stop();
    await app.stop();
  }
}
