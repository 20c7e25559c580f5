// Run-once over real sockets, on whichever database the suite runs (embedded PGlite by default,
// the Postgres server with TEST_DATABASE_URL): simultaneous calls of one task make one run.

import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const CRON_SECRET = "cron-secret-0123456789";
const ctx = useTestApp({ env: { CRON_SECRET } });
let base: string;
beforeAll(async () => {
  base = ctx.listen();
});

const backups = async () => (await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_backups`))[0].n;

describe("run-once", () => {
  test("five simultaneous backup cron calls over HTTP make one backup; the others answer skipped", async () => {
    for (let round = 0; round < 3; round++) {
      await saveStoreSheet(ctx.deps.db, `Title,Date\nRound ${round},2026-06-21\n`, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
      const before = await backups();
      const bodies = await Promise.all(
        Array.from({ length: 5 }, () => fetch(`${base}/api/cron/backup-event-store`, { headers: { authorization: `Bearer ${CRON_SECRET}` } }).then((r) => r.json() as Promise<Record<string, unknown>>)),
      );
      expect(await backups()).toBe(before + 1);
      expect(bodies.filter((b) => b.backup).length).toBe(1);
      expect(bodies.filter((b) => b.skipped).length).toBe(4);
    }
  });
});
