// The homepage from the render cache, each beside bare Bun.serve processes sending the same (brotli)
// bytes in the same run (see compareWithTwins in lib.ts), load from wrk on the other core: the cached full page over the sample
// sheet, and a filtered htmx fragment over a 2,000-row sheet. A third line shows fragments that
// miss the cache (a new search each request); with BENCH_DATABASE_URL, a fourth the same misses
// with the app on a scratch database of that Postgres server. Before the load, the first-load bytes of / at 2,000
// events (the HTML and every stylesheet and script it links, as a phone browser fetches them with
// brotli) are printed beside the figure measured before the list was paged and static files were
// compressed.

import { at, compareWrk, compareWithTwins, rawResponse, startServer, type BenchServer, LISTED_AT } from "./lib.ts";
import { serverDatabase } from "../test/helpers/processes.ts";

const BROTLI = { "accept-encoding": "br" };

/**
 * First-load bytes of / at 2,000 events before paging and static compression (commit 1ffe256,
 * measured with a phone browser): 91,065 B of brotli HTML, app.css 32,120 B, app.js 32,218 B and
 * htmx 52,182 B, all three sent uncompressed.
 */
const FIRST_LOAD_BEFORE = { html: 91_065, css: 32_120, js: 84_400 };

async function firstLoad(appUrl: string): Promise<void> {
  // What a phone gets from the cache: the first request renders (a miss's own answer is compressed
  // at the fastest level), the second is the hit every later visitor gets.
  await rawResponse(`${appUrl}/`, BROTLI);
  const page = await rawResponse(`${appUrl}/`, BROTLI);
  const html = await (await fetch(`${appUrl}/`)).text();
  const sizes = { html: page.bytes.byteLength, css: 0, js: 0 };
  for (const match of html.matchAll(/<(?:link rel="stylesheet" href|script src)="(\/static\/[^"]+)"/g)) {
    const asset = await rawResponse(`${appUrl}${match[1]}`, BROTLI);
    if (match[1].endsWith(".css")) sizes.css += asset.bytes.byteLength;
    else sizes.js += asset.bytes.byteLength;
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const line = (s: typeof sizes) => `HTML ${kb(s.html)} + CSS ${kb(s.css)} + JS ${kb(s.js)} = ${kb(s.html + s.css + s.js)}`;
  console.log(`${"first load of / on a phone (2,000 rows, br)".padEnd(52)} ${line(sizes)}  | before: ${line(FIRST_LOAD_BEFORE)}`);
}

async function withApp(setup: object, run: (app: BenchServer) => Promise<void>): Promise<void> {
  const app = await startServer("servers/app.server.ts", [JSON.stringify(setup)]);
  try {
    await run(app);
  } finally {
    await app.stop();
  }
}

export async function benchHome(): Promise<void> {
  await withApp({ dataMode: "remote", seed: "sample", at: LISTED_AT }, (app) => compareWithTwins("GET / (cached, sample sheet)", at(app, "/"), BROTLI));

  await withApp({ dataMode: "remote", seed: 2000, at: LISTED_AT }, async (app) => {
    await firstLoad(app.url);
    await compareWithTwins("GET /?g=house&dn=night fragment (2,000 rows)", at(app, "/?g=house&dn=night"), { ...BROTLI, ...HTMX });
    await missesAgainstHits(app, "search misses finding nothing / cached fragment hits");
    await missesAgainstHits(app, "search misses re-spelling 200 venue searches (6-17 cards) / hits", "cards");
  });

  // With BENCH_DATABASE_URL, the misses again on a scratch database of that Postgres server.
  const server = process.env.BENCH_DATABASE_URL;
  if (server) {
    const database = await serverDatabase(server, "finder_bench_home");
    try {
      await withApp({ dataMode: "remote", seed: 2000, at: LISTED_AT, env: { DATABASE_URL: database.url } }, (app) => missesAgainstHits(app, "search misses / cached fragment hits (Postgres server)"));
    } finally {
      await database.close();
    }
  }
}

const HTMX = { "hx-request": "true" };

/** What a browser's htmx request sends: misses answer in gzip (sent once), hits in brotli (kept). */
const BROWSER_HTMX = { "accept-encoding": "gzip, deflate, br, zstd", ...HTMX };

/**
 * Lua for wrk: every request a search never asked before. `empty` searches "venue m<n>" under the
 * house filter, which finds nothing; `cards` searches one of the venues 100–299 ("venue 171": the
 * venue's six or seven events and the "Event 171…" ones, 6 to 17 cards), the word written with a
 * different capital or accent each time round ("vÉnüe 171"), which folds to the same search but is
 * a new URL.
 * The run's label (RUN: `warm`, then the round) keeps each run's searches apart, so the warm-up's
 * are not hits in the next run.
 */
function missScript(kind: "empty" | "cards"): string {
  if (kind === "empty") return `counter = 0\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, '/?g=house&q=venue+m' .. RUN .. 'x' .. counter)\nend\n`;
  return `forms = { {"v","V"}, {"e","E","%C3%A9","%C3%89","%C3%A8","%C3%88","%C3%AA","%C3%8A"}, {"n","N"}, {"u","U","%C3%B9","%C3%BC"}, {"e","E","%C3%A9","%C3%89","%C3%A8","%C3%88","%C3%AA","%C3%8A"} }
counter = (tonumber(RUN) or 0) * 200 * 512
request = function()
  counter = counter + 1
  local v = math.floor(counter / 200)
  local word = ""
  for i = 1, 5 do
    local f = forms[i]
    word = word .. f[(v % #f) + 1]
    v = math.floor(v / #f)
  end
  return wrk.format(nil, '/?q=' .. word .. '+' .. (100 + counter % 200))
end
`;
}

/**
 * Misses: every request a new search (missScript), so every one misses the render cache: misses
 * share a live read for up to 250 ms and the filter groups' result per filter state, but the
 * search and the render run each time, and each miss's answer is compressed at the fastest level.
 * Beside it, the cached fragment of a filter, the load from wrk on the other core for both (hit,
 * miss, hit: the two hit runs averaged, compareWrk). Browser headers on both sides.
 */
async function missesAgainstHits(app: BenchServer, name: string, kind: "empty" | "cards" = "empty"): Promise<void> {
  const fragment = "/?g=house&dn=night";
  await expectMisses(app.url, kind);
  await compareWrk(name, at(app, fragment, { script: missScript(kind) }), at(app, fragment), { headers: BROWSER_HTMX });
}

/** Fails the bench unless the searches of `kind` miss the cache and find what they say they find. */
async function expectMisses(appUrl: string, kind: "empty" | "cards"): Promise<void> {
  const url = kind === "empty" ? `${appUrl}/?g=house&q=venue+mcheck1` : `${appUrl}/?q=v%C3%89n%C3%BCe+171`;
  const response = await fetch(url, { headers: HTMX });
  const html = await response.text();
  // The cards of the results section (the spotlight's, sent out of band after it, aside).
  const cards = (html.slice(0, html.indexOf("</section>")).match(/<article class="card/g) ?? []).length;
  const cacheState = response.headers.get("x-cache");
  if (cacheState !== "MISS" || (kind === "cards" ? cards === 0 : cards !== 0)) throw new Error(`search misses of kind ${kind}: x-cache ${cacheState}, ${cards} cards`);
}
