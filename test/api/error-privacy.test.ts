// No personal data in logs or error bodies: a query that fails with an email among its parameters
// is logged and answered with its Postgres code and table only (see docs/operations.md, "Logging").

import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const CRON_SECRET = "cron-secret-0123456789";
const EMAIL = "alice.private@example.com";

const ctx = useTestApp({ env: { CRON_SECRET } });

/** Every log line written so far, as one text. */
const logText = () => ctx.logs.map((l) => l.line).join("\n");

function expectNoPersonalData(text: string) {
  expect(text).not.toContain(EMAIL);
  expect(text).not.toContain("alice.private");
  expect(text.toLowerCase()).not.toContain("failed query");
  expect(text.toLowerCase()).not.toContain("insert into");
  expect(text).not.toContain("params:");
}

describe("database errors carrying personal data", () => {
  test("a failed sign-in insert logs the code and table, never the email or the statement", async () => {
    await ctx.deps.database.query(sql.raw(`alter table users add constraint refuse_every_row check (length(email) < 0) not valid`));
    try {
      const before = ctx.logs.length;
      const res = await ctx.request("/api/auth/verify", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
        body: JSON.stringify({ email: EMAIL, firstName: "Alice", consent: true }),
      });
      expect(res.status).toBe(500);
      const body = await res.text();
      expectNoPersonalData(body);
      const written = ctx.logs.slice(before).map((l) => l.line);
      expect(written.length).toBeGreaterThan(0);
      expectNoPersonalData(written.join("\n"));
      const failure = written.map((line) => JSON.parse(line)).find((record) => record.level === "error");
      expect(failure.error).toMatchObject({ code: "23514", table: "users" });
      expect(failure.error.message).toBe("Database error 23514 on table users");
    } finally {
      await ctx.deps.database.query(sql.raw(`alter table users drop constraint refuse_every_row`));
    }
  });

  test("a failed backup answers and logs no row of the sheet", async () => {
    const csv = `Title,Date,Arrondissement,Location,Description\nPrivate party,2026-06-21,9,Rooftop Bar,Contact ${EMAIL} for the list\n`;
    const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    expect(saved.ok).toBe(true);
    await ctx.deps.database.query(sql.raw(`alter table event_store_backups add constraint refuse_every_backup check (row_count < 0) not valid`));
    try {
      const before = ctx.logs.length;
      const res = await ctx.request("/api/cron/backup-event-store", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({ ok: false, error: "Database error 23514 on table event_store_backups" });
      expectNoPersonalData(JSON.stringify(body));
      expectNoPersonalData(ctx.logs.slice(before).map((l) => l.line).join("\n"));
    } finally {
      await ctx.deps.database.query(sql.raw(`alter table event_store_backups drop constraint refuse_every_backup`));
    }
    expectNoPersonalData(logText());
  });
});
