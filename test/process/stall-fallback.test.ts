// The real process (production mode, DATA_MODE=remote) reaches its database through a TCP proxy
// that this test stalls: every connection stays open and nothing passes either way, so no query
// fails, none answers (docs/operations.md, "When the database is down"). Under a burst of
// concurrent render misses (new searches, one event's API answer, the event modal, My night, the
// sitemap) each is answered
// 200 from the saved list (the events the process last read from the store) within the request
// deadline, and fresh once the database answers again; nothing rendered from the saved list is kept.
//
// The database: with TEST_DATABASE_URL, a database of its own on that Postgres server; without it,
// an in-memory PGlite served over the Postgres wire protocol from this process.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startProxiedService, type ProxiedService } from "../helpers/processes.ts";
import { REQUEST_DEADLINE_MS } from "../../src/app.ts";
import { READ_FALLBACK_MS, READ_REUSE_MS } from "../../src/lib/events/pipeline.ts";
import { canonicalFilterQuery, parseFilters } from "../../src/lib/events/filter-query.ts";

/** Misses of each kind fired at once during the stall. */
const PER_KIND = 6;
/** The homepage's amber notice ("showing the saved event list"). */
const NOTICE = 'class="notice notice-warning" role="status"';

let service: ProxiedService | undefined;
let proxy: ProxiedService["proxy"];
let base = "";
let output: () => string = () => "";

beforeAll(async () => {
  service = await startProxiedService("stall");
  ({ proxy, base, output } = service);
}, 90_000);

afterAll(async () => {
  await service?.stop();
}, 30_000);

interface Answer {
  name: string;
  url: string;
  status: number;
  ms: number;
  body: string;
  cache: string | null;
  csp: string | null;
}

async function ask(name: string, path: string, htmx = false): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, { headers: htmx ? { "hx-request": "true" } : {}, redirect: "manual" });
    const body = await res.text();
    return { name, url: path, status: res.status, ms: performance.now() - started, body, cache: res.headers.get("x-cache"), csp: res.headers.get("content-security-policy") };
  } catch (error) {
    return { name, url: path, status: 0, ms: performance.now() - started, body: String(error), cache: null, csp: null };
  }
}

/** A word of an event's title that a search finds it by (letters only, 4 or more). */
function wordOf(title: string): string {
  return title.split(/[^\p{L}]+/u).find((w) => w.length >= 4) ?? title;
}

describe("render misses while the database stalls", () => {
  test("each concurrent miss answers 200 from the saved list within the deadline, and fresh once the database answers again", async () => {
    const listed = (await (await fetch(`${base}/api/events`)).json()) as { events: { eventKey: string; eventName: string }[] };
    // Events with a title word no other kept event shares: each search is a distinct render miss.
    const seen = new Set<string>();
    const events = listed.events.filter((e) => {
      const word = wordOf(e.eventName).toLowerCase();
      if (word.length < 4 || seen.has(word)) return false;
      seen.add(word);
      return true;
    });
    expect(events.length).toBeGreaterThanOrEqual(PER_KIND * 3);
    // Canonical URLs never asked before (a non-canonical one is redirected, not rendered).
    const searchOf = (i: number) => `/?${canonicalFilterQuery(parseFilters(new URLSearchParams({ q: wordOf(events[i]!.eventName) })))}`;
    const misses: [string, string, boolean, (a: Answer) => boolean][] = [];
    for (let i = 0; i < PER_KIND; i++) {
      const fragment = events[i]!;
      const keyed = events[2 * PER_KIND + i]!;
      misses.push(["search fragment", searchOf(i), true, (a) => a.body.includes(`data-event-key="${fragment.eventKey}"`)]);
      misses.push(["search page", searchOf(PER_KIND + i), false, (a) => a.body.includes(NOTICE) && a.body.includes(`data-event-key="${events[PER_KIND + i]!.eventKey}"`)]);
      misses.push(["event api", `/api/events/${keyed.eventKey}`, false, (a) => (JSON.parse(a.body) as { event?: { eventKey: string; eventName: string } }).event?.eventName === keyed.eventName]);
      misses.push(["event modal", `/?event=${keyed.eventKey}`, true, (a) => a.body.includes(`data-event-key="${keyed.eventKey}"`)]);
      misses.push(["my night", `/my-night?e=${keyed.eventKey}`, false, (a) => a.body.includes(keyed.eventKey)]);
    }
    misses.push(["sitemap", "/sitemap.xml", false, (a) => a.body.includes("<urlset") && a.body.includes(events[0]!.eventKey)]);

    proxy.stall();
    let answers: Answer[];
    let later: Answer[];
    try {
      // Past the read kept for render misses, every miss needs the database.
      await Bun.sleep(READ_REUSE_MS + 150);
      answers = await Promise.all(misses.map(([name, path, htmx]) => ask(name, path, htmx)));
      // The database is now known stalled: new misses go straight to the saved list, without waiting out the budget.
      later = await Promise.all(events.slice(0, PER_KIND).flatMap((e) => [ask("event api", `/api/events/${e.eventKey}`), ask("event modal", `/?event=${e.eventKey}`, true)]));
    } finally {
      proxy.flow();
    }
    const summary = `${JSON.stringify(answers.map((a) => [a.name, a.url, a.status, Math.round(a.ms), a.cache]))}\nlogs:\n${output().slice(-3000)}`;
    expect(answers.filter((a) => a.status !== 200), summary).toEqual([]);
    expect(answers.filter((a) => a.ms >= REQUEST_DEADLINE_MS), summary).toEqual([]);
    // The saved events: the event itself, the search's page with the notice that says so.
    misses.forEach(([name, path, , saved], i) => expect(saved(answers[i]!), `${name} ${path}\n${answers[i]!.body.slice(0, 400)}`).toBe(true));
    expect(answers.every((a) => a.csp?.includes("default-src")), summary).toBe(true);
    const laterSummary = `${JSON.stringify(later.map((a) => [a.name, a.url, a.status, Math.round(a.ms)]))}\nlogs:\n${output().slice(-3000)}`;
    expect(later.filter((a) => a.status !== 200 || a.ms >= READ_FALLBACK_MS), laterSummary).toEqual([]);
    expect(output().split("Database not answering live reads").length - 1, laterSummary).toBe(1);

    // Back: the same misses answer fresh (nothing from the saved list was kept), without the notice.
    const settled = Date.now() + 10_000;
    let page = await ask("search page", searchOf(PER_KIND));
    while (page.body.includes(NOTICE) && Date.now() < settled) {
      await Bun.sleep(100);
      page = await ask("search page", searchOf(PER_KIND));
    }
    expect(page.status, output().slice(-3000)).toBe(200);
    expect(page.body).not.toContain(NOTICE);
    expect(output()).toContain("Database answering live reads again");
    for (const [name, path, htmx, saved] of misses.filter(([name]) => ["event api", "event modal", "my night", "sitemap"].includes(name))) {
      const again = await ask(name, path, htmx);
      expect(again.status).toBe(200);
      expect(again.cache, `${name} ${path}: the render from the saved list was kept`).toBe("MISS");
      expect(saved(again)).toBe(true);
    }
  }, 60_000);
});
