// The homepage from the render cache, each beside a bare Bun.serve process sending the same (brotli)
// bytes in the same run, load from wrk on the other core: the cached full page over the sample
// sheet, and a filtered htmx fragment over a 2,000-row sheet. A third line shows fragments that
// miss the cache (a new search each request).

import { compareWrk, load, rawResponse, startBareTwin, startServer, type BenchServer } from "./lib.ts";

const BROTLI = { "accept-encoding": "br" };

async function compare(name: string, appUrl: string, headers: Record<string, string>): Promise<void> {
  const response = await rawResponse(appUrl, { ...BROTLI, ...headers });
  if (response.status !== 200) throw new Error(`${appUrl} answered ${response.status}`);
  const twin = await startBareTwin(response.bytes, response.headers);
  try {
    await compareWrk(`${name} (${(response.bytes.byteLength / 1024).toFixed(0)} KiB br)`, appUrl, `${twin.url}/`, { headers: { ...BROTLI, ...headers } });
  } finally {
    await twin.stop();
  }
}

async function withApp(setup: object, run: (app: BenchServer) => Promise<void>): Promise<void> {
  const app = await startServer("bench/servers/app.server.ts", [JSON.stringify(setup)]);
  try {
    await run(app);
  } finally {
    await app.stop();
  }
}

export async function benchHome(): Promise<void> {
  await withApp({ dataMode: "remote", seed: "sample" }, (app) => compare("GET / (cached, sample sheet)", `${app.url}/`, {}));

  await withApp({ dataMode: "remote", seed: 2000 }, async (app) => {
    const htmx = { "hx-request": "true" };
    await compare("GET /?g=house&dn=night fragment (2,000 rows)", `${app.url}/?g=house&dn=night`, htmx);

    // Misses: every request a new search, so every one is a live read and a render. The requests
    // differ by URL, so they come from this bench process (another process than the server).
    let n = 0;
    const missUrl = () => new Request(`${app.url}/?g=house&q=venue+${n++ % 100000}`, { headers: { ...BROTLI, ...htmx } });
    await load(missUrl, { total: 50, concurrency: 10, expectStatus: 200, init: { decompress: false } as RequestInit });
    const misses = await load(missUrl, { total: 300, concurrency: 50, expectStatus: 200, init: { decompress: false } as RequestInit });
    console.log(
      `${"fragment cache misses (new search each, 2,000 rows)".padEnd(52)} ${misses.rps.toFixed(0).padStart(7)} req/s  p99 ${misses.p99.toFixed(0)} ms  | every miss is a live read of the store (no event cache)${misses.errors ? `  errors ${misses.errors}` : ""}`,
    );
  });
}
