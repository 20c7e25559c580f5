// A write under the request deadline on the real database (docs/operations.md, "When the database
// is down"): the deadline's timer is fired by hand at chosen points of the transaction, so nothing
// here depends on time.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { DeadlinePassed, RequestDeadline, writeWithinDeadline } from "../../../src/lib/db/write-deadline.ts";
import { findStoreMeta, saveStoreSheet } from "../../../src/lib/store/store.ts";

const ctx = useTestApp();

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
});

const kvCount = async () => (await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from kv_store where key like 'deadline-test:%'`))[0]!.n;
const insertKv = (db: typeof ctx.deps.db, key: string) => db.execute(sql`insert into kv_store (key, value) values (${`deadline-test:${key}`}, '1'::jsonb)`);

/** A deadline far away whose 503 is recorded instead of sent. */
function deadline() {
  const fired: string[] = [];
  const d = new RequestDeadline(Date.now() + 60_000);
  d.onExpired(() => fired.push("503"));
  return { d, fired };
}

describe("writeWithinDeadline", () => {
  test("the deadline passing mid-transaction: the 503 goes out, the write throws DeadlinePassed and nothing is kept", async () => {
    const { d, fired } = deadline();
    const run = writeWithinDeadline(ctx.deps.db, d, async (tx) => {
      await insertKv(tx, "a");
      // The timer fires while the transaction is still working.
      expect(d.expire()).toBe(true);
      await insertKv(tx, "b");
      return "done";
    });
    await expect(run).rejects.toBeInstanceOf(DeadlinePassed);
    expect(fired).toEqual(["503"]);
    expect(await kvCount()).toBe(0);
  });

  test("once committed, the request has happened: the timer sends no 503", async () => {
    const { d, fired } = deadline();
    expect(await writeWithinDeadline(ctx.deps.db, d, async (tx) => (await insertKv(tx, "c"), "done"))).toBe("done");
    expect(d.expire()).toBe(false);
    expect(fired).toEqual([]);
    expect(await kvCount()).toBe(1);
  });

  test("a deadline already gone: nothing starts; a result `keep` refuses is rolled back and returned", async () => {
    const { d } = deadline();
    d.expire();
    await expect(writeWithinDeadline(ctx.deps.db, d, async (tx) => insertKv(tx, "d"))).rejects.toBeInstanceOf(DeadlinePassed);
    const refused = await writeWithinDeadline(ctx.deps.db, undefined, async (tx) => (await insertKv(tx, "e"), { kind: "unavailable" }), (r) => r.kind !== "unavailable");
    expect(refused).toEqual({ kind: "unavailable" });
    expect(await kvCount()).toBe(0);
  });

  test("the store's save under a deadline already gone (an import over HTTP) writes nothing: the store keeps its revision", async () => {
    const before = await findStoreMeta(ctx.deps.db);
    const { d } = deadline();
    d.expire();
    await expect(saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "sheet-import", origin: "sheet-import", trigger: "import", now: ctx.clock.now(), deadline: d })).rejects.toBeInstanceOf(DeadlinePassed);
    expect((await findStoreMeta(ctx.deps.db))?.revision).toBe(before?.revision);
  });
});
