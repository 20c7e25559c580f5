// The CSV fallback through a full database outage (see docs/operations.md, "When the database is
// down"): new searches still answer from the local CSV with arrondissement centres and no
// placements, the notice says so, one warning per read, and no page answers 500.

import { afterAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { loadConfig } from "../../src/lib/config.ts";
import { buildDeps } from "../../src/deps.ts";
import { createApp } from "../../src/app.ts";
import { createMemoryLogger } from "../../src/lib/logger.ts";
import { openDatabase, wrapPglite, type Database } from "../../src/lib/db/client.ts";
import { ARRONDISSEMENT_CENTRES } from "../../src/lib/sheet/arrondissement.ts";
import { translate } from "../../src/lib/i18n/index.ts";
const SPOTLIGHT_STATUS_UNAVAILABLE = translate("en", "feature.status.unavailable");
import { createClock, testEnv } from "../helpers/app.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";

function closedPort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

let stopped: Promise<Database> | undefined;

/** A database whose connection is gone: the test server's connection ended, or a closed PGlite (made once: PGlite starts slowly). */
function stoppedDatabase(): Promise<Database> {
  stopped ??= stopDatabase();
  return stopped;
}

async function stopDatabase(): Promise<Database> {
  if (TEST_DATABASE_URL) {
    const database = await openDatabase({ url: TEST_DATABASE_URL, maxConnections: 1 });
    await database.query((await import("drizzle-orm")).sql`select 1`);
    await database.pg!.end({ timeout: 1 });
    return database;
  }
  const instance = await PGlite.create();
  await instance.close();
  return wrapPglite(instance);
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function outage(database: Database) {
  const config = loadConfig(testEnv({ DATA_MODE: "remote", LOCAL_EVENTS_CSV: "data/events.csv" }));
  const log = createMemoryLogger("json");
  const deps = await buildDeps(config, { database, log, now: createClock().now, skipMigrations: true, ownsDatabase: false });
  const app = createApp(deps);
  cleanups.push(() => deps.shutdown());
  const records = () => log.lines.map((l) => JSON.parse(l.line) as { level: string; scope: string; message: string; context?: Record<string, unknown> });
  return { request: (path: string, init?: RequestInit) => app.handle(new Request(`http://finder.test${path}`, init)), records };
}

const variants: [string, () => Promise<Database>][] = [
  ["a Postgres server that refuses connections", async () => openDatabase({ url: `postgres://postgres@127.0.0.1:${closedPort()}/finder` })],
  [TEST_DATABASE_URL ? "a Postgres connection that was stopped" : "an embedded database that was stopped", stoppedDatabase],
];

describe.each(variants)("full outage: %s", (_name, open) => {
  test("new searches answer from the CSV with centres, no placements, the amber notice and one warning each", async () => {
    const ctx = await outage(await open());
    let searches = 0;
    for (const path of ["/", "/?q=jazz", "/?q=soca", "/?q=house"]) {
      const before = ctx.records().length;
      const res = await ctx.request(path);
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).toContain(`${translate("en", "home.fallbackNotice")} ${translate("en", "home.degradedNotice")}`);
      const warnings = ctx.records().slice(before).filter((r) => r.scope === "events" && r.level === "warn");
      expect(warnings).toHaveLength(1);
      expect(warnings[0].context).toMatchObject({ source: "local" });
      expect(warnings[0].context!.degraded).toBeString();
      searches++;
    }
    expect(searches).toBe(4);

    const fragment = await ctx.request("/?q=funk", { headers: { "hx-request": "true" } });
    expect(fragment.status).toBe(200);

    const api = await ctx.request("/api/events");
    expect(api.status).toBe(200);
    const { events } = (await api.json()) as { events: { arrondissement: unknown; coordinates?: { lat: number; lng: number }; isFeatured: boolean; isPromoted: boolean; calendarSyncCount: number }[] };
    expect(events.length).toBeGreaterThan(50);
    for (const event of events) {
      expect(event.isFeatured).toBe(false);
      expect(event.isPromoted).toBe(false);
      expect(event.calendarSyncCount).toBe(0);
      if (typeof event.arrondissement === "number" && event.coordinates) {
        const centre = ARRONDISSEMENT_CENTRES[event.arrondissement]!;
        expect(event.coordinates).toEqual({ lat: centre.lat, lng: centre.lng });
      }
    }
    expect(events.some((e) => e.coordinates !== undefined)).toBe(true);
  }, 60_000);

  test("/feature-event and its spotlight status answer without a 500", async () => {
    const ctx = await outage(await open());
    for (const headers of [{}, { "hx-request": "true" }] as Record<string, string>[]) {
      const res = await ctx.request("/feature-event/status", { headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(SPOTLIGHT_STATUS_UNAVAILABLE);
    }
    const page = await ctx.request("/feature-event");
    expect(page.status).toBeLessThan(500);
  }, 60_000);
});
