// The Paris time helpers that other modules now share: formats on the Paris clock (made once) and
// the SQL of a Paris calendar day, checked on the test database around midnight and a DST change.

import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { parisDate, parisDaySql, parisFormat, parisWallClockSql } from "../../src/lib/paris-time.ts";
import { useTestApp } from "../helpers/app.ts";

const ctx = useTestApp();

test("parisFormat formats on the Paris clock and makes each format once", () => {
  const format = parisFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  expect(format.format(new Date("2026-06-20T22:30:00Z"))).toBe("00:30");
  expect(format.format(new Date("2026-01-20T22:30:00Z"))).toBe("23:30");
  expect(parisFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })).toBe(format);
  expect(format.resolvedOptions().timeZone).toBe("Europe/Paris");
});

test("parisDate, asked instant after instant (it keeps the last minute's date), turns at Paris midnight and never answers for another minute", () => {
  const asked = [
    ["2026-06-21T21:59:00Z", "2026-06-21"],
    ["2026-06-21T21:59:59.999Z", "2026-06-21"],
    ["2026-06-21T22:00:00Z", "2026-06-22"],
    ["2026-06-21T22:00:30Z", "2026-06-22"],
    ["2026-06-21T21:59:30Z", "2026-06-21"],
    ["2026-01-20T22:59:59Z", "2026-01-20"],
    ["2026-01-20T23:00:00Z", "2026-01-21"],
    ["2026-01-20T23:00:00Z", "2026-01-21"],
    ["1969-12-31T22:59:59Z", "1969-12-31"],
    ["1969-12-31T23:00:00Z", "1970-01-01"],
  ] as const;
  expect(asked.map(([at]) => parisDate(new Date(at)))).toEqual(asked.map(([, date]) => date));
  expect(() => parisDate(new Date(Number.NaN))).toThrow(RangeError);
});

test("parisDaySql gives the Paris calendar date in SQL (after midnight in Paris, before it in UTC; on both sides of a DST change)", async () => {
  const at = (iso: string) => sql`${iso}::timestamptz`;
  const [row] = await ctx.deps.database.query<Record<string, string>>(sql`
    select ${parisDaySql(at("2026-06-20T22:30:00Z"))}::text as summer,
      ${parisDaySql(at("2026-10-25T00:30:00Z"))}::text as before_change,
      ${parisDaySql(at("2026-10-25T23:30:00Z"))}::text as after_change,
      to_char(${parisWallClockSql(at("2026-03-29T01:30:00Z"))}, 'HH24:MI') as spring_clock`);
  expect(row).toEqual({ summer: "2026-06-21", before_change: "2026-10-25", after_change: "2026-10-26", spring_clock: "03:30" });
});
