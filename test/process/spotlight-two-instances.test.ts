// Two service processes (bun src/index.ts, each with its own connection pool) share one database
// and take many concurrent spotlight bookings through the admin API; afterwards no slot holds two
// entries at once and no instant has more live spotlights than slots (docs/placements.md,
// "Status, state, locking").
//
// The shared database: with TEST_DATABASE_URL, a database of its own on that Postgres server, where
// the scheduler's advisory lock is what serialises the two processes. Without it, an in-memory
// PGlite served over the Postgres wire protocol from this test process (test/helpers/pglite-wire.ts):
// both services connect to it exactly as they would to a server (DATABASE_URL). PGlite is one
// backend, so there each transaction runs alone and the advisory lock is never contended: that
// run checks the bookings of two processes end to end, the Postgres run also checks the lock.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { pgliteServer, serverDatabase, spawnService, type RunningService, type SharedDatabase } from "../helpers/processes.ts";

const ADMIN_KEY = "two-instances-admin-key-0123456789";
const SLOTS = 3;
/** Bookings sent to each process, all at once. */
const PER_PROCESS = 24;
const FIXTURE_KEYS = Array.from({ length: 12 }, (_, i) => `evt_fixture${String(i + 1).padStart(6, "0")}`);

type Service = RunningService;

function startService(databaseUrl: string): Promise<Service> {
  return spawnService({
    DATA_MODE: "test",
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: "s".repeat(40),
    TRUSTED_PROXIES: "none",
    ADMIN_KEY,
    SPOTLIGHT_SLOTS: String(SLOTS),
  });
}

async function stopService(service: Service): Promise<number> {
  service.child.kill("SIGTERM");
  const code = await Promise.race([service.child.exited, Bun.sleep(10_000).then(() => -1)]);
  if (code === -1) service.child.kill("SIGKILL");
  return code;
}

function book(service: Service, i: number): Promise<Response> {
  return fetch(`http://127.0.0.1:${service.port}/api/admin/placements/spotlight`, {
    method: "POST",
    headers: { "x-admin-key": ADMIN_KEY, "content-type": "application/json" },
    // On the real clock the fixture's June events may have ended: confirmed.
    body: JSON.stringify({ eventKey: FIXTURE_KEYS[i % FIXTURE_KEYS.length], durationHours: 1 + (i % 5), confirm: true }),
  });
}

interface Window {
  id: string;
  start: number;
  end: number;
  slot: number | null;
}

describe(`two service processes on one ${TEST_DATABASE_URL ? "Postgres server" : "PGlite database served over the wire"}`, () => {
  let shared: SharedDatabase;
  const services: Service[] = [];

  beforeAll(async () => {
    shared = TEST_DATABASE_URL ? await serverDatabase(TEST_DATABASE_URL, "finder_slots") : await pgliteServer();
    // The first start applies the migrations; the second finds them applied, as in a rolling start.
    services.push(await startService(shared.url));
    services.push(await startService(shared.url));
  }, 150_000);

  afterAll(async () => {
    for (const service of services) await stopService(service);
    await shared?.close();
  }, 60_000);

  test(
    "concurrent bookings through both never double-book a slot nor exceed the slot count",
    async () => {
      const [a, b] = services as [Service, Service];
      const responses = await Promise.all(Array.from({ length: PER_PROCESS * 2 }, (_, i) => book(i % 2 === 0 ? a : b, i))).catch((error) => {
        throw new Error(`a booking failed (${error}); logs:\n${a.output()}\n${b.output()}`);
      });
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s !== 201), `answers other than 201; logs:\n${a.output()}\n${b.output()}`).toEqual([]);

      // Each process lists what both wrote; both see the same allocation.
      const listings = await Promise.all(
        [a, b].map(async (service) => {
          const res = await fetch(`http://127.0.0.1:${service.port}/api/admin/placements/spotlight`, { headers: { "x-admin-key": ADMIN_KEY } });
          return (await res.json()) as { entries: { id: string; effectiveStartAt: string; effectiveEndAt: string; slot: number | null; status: string; createdBy: string }[]; activeCount: number };
        }),
      );
      const entries = listings[0]!.entries;
      expect(entries).toHaveLength(PER_PROCESS * 2);
      expect(listings[1]!.entries.map((e) => [e.id, e.slot, e.effectiveStartAt])).toEqual(entries.map((e) => [e.id, e.slot, e.effectiveStartAt]));
      expect(listings[0]!.activeCount).toBe(SLOTS);

      const windows: Window[] = entries.map((e) => ({ id: e.id, start: Date.parse(e.effectiveStartAt), end: Date.parse(e.effectiveEndAt), slot: e.slot }));
      for (const w of windows) {
        expect(w.slot).toBeGreaterThanOrEqual(1);
        expect(w.slot).toBeLessThanOrEqual(SLOTS);
        expect(w.end).toBeGreaterThan(w.start);
      }
      // No two entries of one slot overlap.
      const clashes = windows.flatMap((w) => windows.filter((o) => o.id < w.id && o.slot === w.slot && o.start < w.end && w.start < o.end).map((o) => `${o.id}/${w.id} in slot ${w.slot}`));
      expect(clashes).toEqual([]);
      // At every start, at most SLOTS entries are live.
      const busiest = Math.max(...windows.map((w) => windows.filter((o) => o.start <= w.start && w.start < o.end).length));
      expect(busiest).toBe(SLOTS);
    },
    120_000,
  );
});
