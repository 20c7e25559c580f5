// Starting the next edition while two service processes serve one database (docs/editions.md,
// "Rollover"): the team starts it through one instance while a host submits through the other and
// the start is clicked again there. Afterwards the archive of the edition that is over lists
// exactly the events published before, on both instances; the new edition is empty but for the
// carried-over drafts and the accepted submission; the edition's partner link still answers; the
// second start was refused; and the backup taken first restores the old sheet.
//
// The real clock decides the editions: the shipped sample is dated in the year before the coming
// edition, so the test holds on any day (inside an edition's window, that year's window is first
// moved before today, so the next edition is the coming one). The shared database: with
// TEST_DATABASE_URL a database of its own on that Postgres server, else an in-memory PGlite served
// over the Postgres wire protocol.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import { currentEditionSheet, pgliteServer, serverDatabase, spawnService, type RunningService, type SharedDatabase } from "../helpers/processes.ts";
import { currentEdition, editionState, type EditionWindows } from "../../src/lib/events/editions.ts";

const ADMIN_KEY = "rollover-admin-key-0123456789abcdef";
const ADMIN = { "x-admin-key": ADMIN_KEY, "content-type": "application/json" };

type Service = RunningService;

/** The windows that make the coming edition upcoming today, and its year. */
function comingEdition(now: Date): { windows: EditionWindows; year: number } {
  const plain = currentEdition(now);
  if (editionState(plain, now) === "upcoming") return { windows: {}, year: plain.year };
  // Inside this year's window: it is moved to the first days of June, so today is after it.
  const y = plain.year;
  const windows = { [String(y)]: { from: `${y}-06-01`, to: `${y}-06-02`, night: `${y}-06-01` } };
  return { windows, year: currentEdition(now, windows).year };
}

function startService(databaseUrl: string, csv: string, dataDir: string): Promise<Service> {
  return spawnService({
    DATA_MODE: "remote",
    DATABASE_URL: databaseUrl,
    LOCAL_EVENTS_CSV: csv,
    DATA_DIR: dataDir,
    AUTH_SECRET: "r".repeat(40),
    TRUSTED_PROXIES: "none",
    ADMIN_KEY,
    NEXT_PUBLIC_SITE_URL: "http://finder.test",
  });
}

const keysOn = (html: string) => [...new Set([...html.matchAll(/data-event-key="(evt_[a-z0-9]+)"/g)].map((m) => m[1]!))].sort();

describe(`starting the next edition with two processes on one ${TEST_DATABASE_URL ? "Postgres server" : "PGlite database served over the wire"}`, () => {
  let shared: SharedDatabase;
  const services: Service[] = [];
  const dir = mkdtempSync(join(tmpdir(), "finder-rollover-"));
  const coming = comingEdition(new Date());
  const closing = coming.year - 1;

  beforeAll(async () => {
    shared = TEST_DATABASE_URL ? await serverDatabase(TEST_DATABASE_URL, "finder_rollover") : await pgliteServer();
    const csv = currentEditionSheet(dir, closing);
    // One after the other: the first migrates and seeds the store, the second finds it done.
    services.push(await startService(shared.url, csv, join(dir, "data-a")));
    services.push(await startService(shared.url, csv, join(dir, "data-b")));
  }, 150_000);

  afterAll(async () => {
    for (const service of services) {
      service.child.kill("SIGTERM");
      await Promise.race([service.child.exited, Bun.sleep(10_000)]);
      service.child.kill("SIGKILL");
    }
    await shared?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test(
    "the archive keeps what was published, the new edition holds the drafts and the submission, and nothing is lost",
    async () => {
      const [a, b] = services as [Service, Service];
      const logs = () => `logs:\n${a.output().slice(-3000)}\n${b.output().slice(-3000)}`;
      const json = async (service: Service, path: string, body?: unknown, method = "POST") => {
        const res = await fetch(`${service.base}${path}`, body === undefined ? { headers: ADMIN } : { method, headers: ADMIN, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as any };
      };
      for (const [year, window] of Object.entries(coming.windows)) expect((await json(a, "/api/admin/editions", { year: Number(year), ...window }, "PUT")).status).toBe(200);

      // Before: the closing edition's events, on both instances; a partner link of that edition.
      const before = keysOn(await (await fetch(`${b.base}/${closing}/`)).text());
      expect(before.length, logs()).toBeGreaterThan(50);
      expect(keysOn(await (await fetch(`${a.base}/${closing}/`)).text())).toEqual(before);
      const order = await json(a, "/api/admin/orders/test", { eventKey: before[0], tier: "spotlight", durationHours: 2, confirm: true });
      expect(order.status, JSON.stringify(order.body)).toBe(201);
      const statsUrl = new URL(order.body.statsUrl as string);
      const sheet = await json(a, "/api/admin/sheet?offset=0&limit=200");
      const carry = (sheet.body.rows as { id: string }[]).slice(0, 3).map((row) => row.id);
      const storedBefore = sheet.body.rows.length as number;

      // The start through A, a host's submission through B and a second start through B, at once.
      const night = `${coming.year}-06-21`;
      const [started, submitted, again] = await Promise.all([
        json(a, "/api/admin/editions/start", { year: coming.year, carryOver: carry }),
        fetch(`${b.base}/api/event-submissions?lang=en`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ eventName: "Rollover Night Session", date: night, startTime: "20:00", location: "Quai de Valmy", hostEmail: "host@example.com", proofLink: "https://example.com/rollover", formStartedAt: new Date(Date.now() - 120_000).toISOString() }),
        }),
        // The same click again, on the other instance.
        Bun.sleep(5).then(() => json(b, "/api/admin/editions/start", { year: coming.year, carryOver: carry })),
      ]);
      const statuses = [started.status, again.status].sort();
      expect(statuses, `${JSON.stringify([started.body, again.body])}\n${logs()}`).toEqual([200, 409]);
      const winner = started.status === 200 ? started.body : again.body;
      expect(winner).toMatchObject({ year: coming.year, archived: { year: closing, rowCount: storedBefore }, carried: carry.length });
      expect(submitted.status, logs()).toBe(200);

      // The host's submission is accepted through A: it lands in the new edition.
      const pending = await json(a, "/api/admin/submissions?status=pending");
      const accepted = await json(a, `/api/admin/submissions/${pending.body.submissions[0].id}/accept`, {});
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

      // After, on both instances: the archive is exactly what was published before.
      for (const service of [a, b]) expect(keysOn(await (await fetch(`${service.base}/${closing}/?q=`)).text()), logs()).toEqual(before);
      // The new edition: the accepted submission is its one published event; the working sheet
      // holds it and the carried drafts (re-dated into the new year, new keys).
      const home = await (await fetch(`${b.base}/?dn=night`)).text();
      expect(home).toContain("Rollover Night Session");
      expect(keysOn(home)).toHaveLength(1);
      const working = await json(b, "/api/admin/sheet?offset=0&limit=200");
      expect(working.body.rows).toHaveLength(carry.length + 1);
      const editor = JSON.stringify(working.body.rows);
      expect(editor.match(new RegExp(`${coming.year}-06-\\d\\d`, "g"))?.length ?? 0, editor.slice(0, 600)).toBeGreaterThanOrEqual(carry.length);
      for (const key of before) expect(editor).not.toContain(key);

      // The partner link of the closing edition still answers, on the other instance too.
      expect((await fetch(`${b.base}${statsUrl.pathname}${statsUrl.search}`)).status).toBe(200);

      // The backup taken first restores the closing edition's sheet.
      const backups = await json(a, "/api/admin/backups");
      const pre = (backups.body.backups as { id: string; trigger: string; rowCount: number }[]).find((backup) => backup.rowCount === storedBefore);
      expect(pre, JSON.stringify(backups.body.backups)).toBeDefined();
      const restored = await json(b, "/api/admin/backups/restore", { id: pre!.id });
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      expect((await json(a, "/api/admin/sheet?offset=0&limit=200")).body.rows).toHaveLength(storedBefore);
    },
    180_000,
  );
});
