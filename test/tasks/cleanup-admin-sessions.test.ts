// State table row "expired session record → cleanup task": deleted only more than 604800 s past exp.

import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { loginAsAdmin } from "../helpers/auth.ts";
import { cleanupAdminSessions } from "../../src/tasks/cleanup-admin-sessions.ts";

const ctx = useTestApp();

test("records more than 604800 s past exp are deleted; younger ones stay for audit; one outcome line", async () => {
  ctx.clock.set("2026-06-21T10:00:00Z");
  const t0 = Math.floor(ctx.clock.now().getTime() / 1000);
  const old = await loginAsAdmin(ctx); // exp t0 + 3600
  ctx.clock.advance(1000);
  const young = await loginAsAdmin(ctx); // exp t0 + 3601
  ctx.clock.set(new Date((t0 + 3600 + 604800 + 1) * 1000)); // old: 604801 s past exp; young: exactly 604800 s
  expect(await cleanupAdminSessions(ctx.deps)).toEqual({ deleted: 1 });
  const left = await ctx.deps.database.query<{ jti: string }>(sql`select jti from admin_sessions`);
  expect(left.map((r) => r.jti)).toEqual([young.jti]);
  expect(left.some((r) => r.jti === old.jti)).toBe(false);
  expect(ctx.logs.filter((l) => l.line.includes('"message":"Admin session cleanup"') && l.line.includes('"deleted":1')).length).toBe(1);
  ctx.clock.advance(1000);
  expect(await cleanupAdminSessions(ctx.deps)).toEqual({ deleted: 1 });
  expect(await cleanupAdminSessions(ctx.deps)).toEqual({ deleted: 0 });
});
