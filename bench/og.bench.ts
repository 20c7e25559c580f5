// A cached /api/og image (one render, then served from memory behind the per-IP guard) against a
// bare Bun.serve process sending the same PNG bytes, measured in the same run with wrk; then what one
// uncached render costs.

import { at, compareWrk, rawResponse, startBareTwin, startServer } from "./lib.ts";

export async function benchOg(): Promise<void> {
  const app = await startServer("servers/app.server.ts", [JSON.stringify({ dataMode: "test" })]);
  const path = "/api/og?variant=event-modal&title=Canal%20Amapiano%20Sunset&date=Sunday%2021st&arrondissement=10e&eventCount=14";
  const response = await rawResponse(`${app.url}${path}`, { "x-forwarded-for": "10.254.0.1" });
  const bare = await startBareTwin(response.bytes, response.headers);
  try {
    await compareWrk("GET /api/og (cached image, batched IP guard)", at(app, path), at(bare, "/"), {
      // A new client address per request (through the loopback proxy path): the guard allows 120 per IP per hour.
      requests: [{ path, headers: { "x-forwarded-for": "10.{n/65536%256}.{n/256%256}.{n%256}" } }],
    });

    // What a cache miss costs: distinct venues, one at a time (satori layout + resvg raster).
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      const res = await fetch(`${app.url}${path}&venue=Venue%20${i}`, { headers: { "x-forwarded-for": `10.255.0.${i}` } });
      await res.arrayBuffer();
      if (res.headers.get("x-cache") !== "MISS") throw new Error("expected a fresh render");
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${"GET /api/og (uncached render, one at a time)".padEnd(52)} median ${times[6].toFixed(0)} ms  max ${times[11].toFixed(0)} ms`);
  } finally {
    await bare.stop();
    await app.stop();
  }
}
