// Search misses over the event store, through the listening server: a search whose results an
// earlier search shared answers in gzip spliced from their template (results-template.ts), and
// every such answer decodes to its own fragment, byte for byte the one sent uncompressed.

import { beforeAll, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { bigSheet } from "../../bench/fixtures.ts";

const ctx = useTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
let base: string;

beforeAll(async () => {
  const saved = await saveStoreSheet(ctx.deps.db, bigSheet(100), { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
  if (!saved.ok) throw new Error(saved.error);
  base = ctx.listen();
}, 120_000);

const BROWSER = { "hx-request": "true", "accept-encoding": "gzip, deflate, br, zstd" };

test("searches sharing their results: the later ones are spliced gzip, each decoding to its own fragment", async () => {
  // Searches finding nothing, with no "Did you mean" (every word holds a digit), in the same filter
  // state: one template. The first compresses its own answer; the later ones splice theirs.
  const spliced: boolean[] = [];
  for (const q of ["zz1", "ZZ2  xx3", '<b>zz4</b> & "𝄞5"']) {
    const url = `${base}/?g=house&q=${encodeURIComponent(q)}`;
    const gzipped = await fetch(url, { headers: BROWSER, decompress: false } as RequestInit);
    expect([gzipped.status, gzipped.headers.get("x-cache"), gzipped.headers.get("content-encoding")]).toEqual([200, "MISS", "gzip"]);
    const bytes = Buffer.from(await gzipped.arrayBuffer());
    // A spliced stream's header names no system (255); a compressor's names Unix (3).
    spliced.push(bytes[9] === 255);
    const body = gunzipSync(bytes).toString();
    const plain = await fetch(url, { headers: { "hx-request": "true", "accept-encoding": "identity" } });
    expect(body).toBe(await plain.text());
    expect(body).toContain(`q=${new URLSearchParams({ q: q.replace(/\s+/g, " ") }).toString().slice(2)}`);
    expect(body).not.toContain("<b>zz4");
  }
  expect(spliced).toEqual([false, true, true]);
});

test("searches finding events: a re-spelt search is spliced from the first one's template and lists the same cards", async () => {
  const cards = (html: string) => [...html.matchAll(/data-event-key="([^"]+)"/g)].map((m) => m[1]);
  const answers: { spliced: boolean; cards: string[] }[] = [];
  for (const q of ["Venue 12", "VENUE 12", "venue   12"]) {
    const response = await fetch(`${base}/?q=${encodeURIComponent(q)}`, { headers: BROWSER, decompress: false } as RequestInit);
    const bytes = Buffer.from(await response.arrayBuffer());
    answers.push({ spliced: bytes[9] === 255, cards: cards(gunzipSync(bytes).toString()) });
  }
  expect(answers.map((a) => a.spliced)).toEqual([false, true, true]);
  expect(answers[0]!.cards.length).toBeGreaterThan(0);
  expect(answers[1]!.cards).toEqual(answers[0]!.cards);
  expect(answers[2]!.cards).toEqual(answers[0]!.cards);
});

test("a search kept once asked again keeps its own bytes while later searches reuse the answer buffers", async () => {
  const get = async (q: string, encoding: string) => {
    const response = await fetch(`${base}/?g=house&q=${encodeURIComponent(q)}`, { headers: { ...BROWSER, "accept-encoding": encoding }, decompress: false } as RequestInit);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { cache: response.headers.get("x-cache"), body: response.headers.get("content-encoding") === "gzip" ? gunzipSync(bytes).toString() : bytes.toString() };
  };
  // Asked twice (the second is kept), then searches of other lengths and results written after it.
  const first = await get("kept7 search", "gzip");
  expect((await get("kept7 search", "gzip")).cache).toBe("MISS");
  const others = [];
  for (const q of ["o1", "another8 much longer search text than the first", "Venue 12", "zz9"]) others.push(await get(q, "gzip"));
  for (const other of others) expect(other.body).not.toBe(first.body);
  const hit = await get("kept7 search", "identity");
  expect(hit.cache).toBe("HIT");
  expect(hit.body).toBe(first.body);
  expect((await get("kept7 search", "gzip")).body).toBe(first.body);
});
