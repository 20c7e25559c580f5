// Admin sessions (see docs/auth-and-admin.md, "Admin login and sessions"): every minted admin token
// has a record (jti, tv, iat, exp, ip, ua); its status is derived when read; one global token
// version, stored in admin_meta, only increases.

import { recordActivity } from "../admin/activity.ts";
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { adminMeta, adminSessions } from "../db/schema/index.ts";
import { signAdminToken, verifyAdminToken, type AdminTokenClaims } from "./admin-token.ts";
import { unixSeconds, type SigningSecret } from "./jwt-key.ts";

/** Records stay this long after their token expired (audit), then the cleanup task deletes them. */
export const ADMIN_SESSION_RETENTION_SECONDS = 604_800;

/** A revoked record stays revoked at least this long, even when its token is about to expire. */
export const REVOKE_GRACE_SECONDS = 60;

export type AdminSessionStatus = "active" | "expired" | "revoked" | "invalidated";

/** One stored session record. */
export interface AdminSessionRecord {
  jti: string;
  tv: number;
  iat: number;
  exp: number;
  ip: string;
  ua: string;
  revokedUntil: Date | null;
}

/** A record with its derived status. */
export interface AdminSessionView extends AdminSessionRecord {
  status: AdminSessionStatus;
}

/** An item of GET /api/admin/tokens/sessions. */
export interface ListedAdminSession {
  jti: string;
  iat: number;
  exp: number;
  v: number;
}

/** Status at `now`, first match wins: expired → revoked → invalidated → active. */
export function deriveSessionStatus(record: Pick<AdminSessionRecord, "exp" | "tv" | "revokedUntil">, now: Date, currentVersion: number): AdminSessionStatus {
  if (record.exp <= unixSeconds(now)) return "expired";
  if (record.revokedUntil && record.revokedUntil.getTime() > now.getTime()) return "revoked";
  if (record.tv !== currentVersion) return "invalidated";
  return "active";
}

/** The current global token version (1 until the first revoke-all). */
export async function getTokenVersion(db: Db): Promise<number> {
  const rows = await db.select({ v: adminMeta.tokenVersion }).from(adminMeta).where(eq(adminMeta.id, 1)).limit(1);
  return rows[0]?.v ?? 1;
}

/** Raises the global version by one (creating the row at 2 when missing); returns the new version. */
export async function revokeAllAdminSessions(db: Db, now: Date): Promise<number> {
  const rows = await db
    .insert(adminMeta)
    .values({ id: 1, tokenVersion: 2, updatedAt: now })
    .onConflictDoUpdate({ target: adminMeta.id, set: { tokenVersion: sql`${adminMeta.tokenVersion} + 1`, updatedAt: now } })
    .returning({ v: adminMeta.tokenVersion });
  return rows[0].v;
}

/** Mints an admin token for a new session at the current version and records the session. */
export async function startAdminSession(
  deps: { db: Db; secret: SigningSecret; now: Date },
  client: { ip: string; ua: string },
): Promise<{ token: string } & AdminTokenClaims> {
  const tv = await getTokenVersion(deps.db);
  const minted = await signAdminToken(deps.secret, { jti: crypto.randomUUID(), tv, now: deps.now });
  await deps.db.insert(adminSessions).values({
    jti: minted.jti,
    tv: minted.tv,
    iat: minted.iat,
    exp: minted.exp,
    ip: client.ip.slice(0, 100) || "unknown",
    ua: client.ua.slice(0, 512),
    createdAt: deps.now,
  });
  return minted;
}

/**
 * The prepared admin-session check: one round trip per guarded request, the record and the global
 * version together. Built once per database by `buildDeps` (`deps.adminSessionLookup`).
 */
export type AdminSessionLookup = ReturnType<typeof prepareAdminSessionLookup>;

/** Prepares the admin-session check statement for a database. */
export function prepareAdminSessionLookup(db: Db) {
  return db
    .select({
      tv: adminSessions.tv,
      iat: adminSessions.iat,
      exp: adminSessions.exp,
      revokedUntil: adminSessions.revokedUntil,
      currentVersion: sql<number | null>`(select ${adminMeta.tokenVersion} from ${adminMeta} where ${adminMeta.id} = 1)`,
    })
    .from(adminSessions)
    .where(eq(adminSessions.jti, sql.placeholder("jti")))
    .limit(1)
    .prepare("admin_session_check");
}

/**
 * Checks an admin token completely: signature, claims and expiry, then its record: it exists with
 * the same iat, exp and tv, is not revoked, and tv equals the current global version.
 * Returns the claims of a valid token, undefined otherwise; throws only when the store fails.
 */
export async function checkAdminToken(lookup: AdminSessionLookup, secret: SigningSecret, token: unknown, now: Date): Promise<AdminTokenClaims | undefined> {
  const claims = await verifyAdminToken(secret, token, now);
  if (!claims) return undefined;
  const [row] = await lookup.execute({ jti: claims.jti });
  if (!row || row.iat !== claims.iat || row.exp !== claims.exp || row.tv !== claims.tv) return undefined;
  const currentVersion = Number(row.currentVersion ?? 1);
  return deriveSessionStatus(row, now, currentVersion) === "active" ? claims : undefined;
}

/** Every record, newest first (iat, then jti, descending), with its status; expired ones on request. */
export async function listAdminSessions(db: Db, now: Date, options: { includeExpired?: boolean; limit?: number } = {}): Promise<{ sessions: AdminSessionView[]; currentVersion: number; total: number; active: number }> {
  const currentVersion = await getTokenVersion(db);
  const rows = await db
    .select()
    .from(adminSessions)
    .orderBy(desc(adminSessions.iat), desc(adminSessions.jti))
    .limit(options.limit ?? 500);
  const all = rows.map((r) => ({ jti: r.jti, tv: r.tv, iat: r.iat, exp: r.exp, ip: r.ip, ua: r.ua, revokedUntil: r.revokedUntil, status: deriveSessionStatus(r, now, currentVersion) }));
  return {
    sessions: options.includeExpired ? all : all.filter((s) => s.status !== "expired"),
    currentVersion,
    total: all.length,
    active: all.filter((s) => s.status === "active").length,
  };
}

/** The active sessions as GET /api/admin/tokens/sessions lists them, newest first. */
export async function listActiveAdminSessions(db: Db, now: Date): Promise<{ sessions: ListedAdminSession[]; currentTokenVersion: number }> {
  const currentVersion = await getTokenVersion(db);
  // Expired records are excluded in SQL (indexed); the other rules come from deriveSessionStatus.
  const rows = await db
    .select()
    .from(adminSessions)
    .where(and(gt(adminSessions.exp, unixSeconds(now)), eq(adminSessions.tv, currentVersion)))
    .orderBy(desc(adminSessions.iat), desc(adminSessions.jti));
  const sessions = rows
    .filter((r) => deriveSessionStatus(r, now, currentVersion) === "active")
    .map((r) => ({ jti: r.jti, iat: r.iat, exp: r.exp, v: r.tv }));
  return { sessions, currentTokenVersion: currentVersion };
}

const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A jti taken from a URL path segment: URL-decoded, trimmed, lower-cased; undefined unless a UUID. */
export function parseJtiParam(raw: string): string | undefined {
  if (raw.length > 200) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const jti = decoded.trim().toLowerCase();
  return UUID_ANY.test(jti) ? jti : undefined;
}

/**
 * Revokes one session: revoked_until becomes the later of its exp and now + 60 s.
 * Returns false when no record has that jti.
 */
export async function revokeAdminSession(db: Db, jti: string, now: Date, actor?: string): Promise<boolean> {
  if (!UUID_ANY.test(jti)) return false;
  const floor = new Date(now.getTime() + REVOKE_GRACE_SECONDS * 1000);
  const rows = await db
    .update(adminSessions)
    .set({ revokedUntil: sql`greatest(to_timestamp(${adminSessions.exp}), ${floor.toISOString()}::timestamptz)` })
    .where(eq(adminSessions.jti, jti))
    .returning({ jti: adminSessions.jti });
  // On the console's timeline (an admin's own logout passes no actor and is not an admin action).
  if (actor && rows.length > 0) await recordActivity({ db, now: () => now }, { actor, action: "session.revoke", targetType: "admin-session", targetId: jti, outcome: "ok" });
  return rows.length > 0;
}

/** Deletes records whose token expired more than 604800 s ago; younger ones stay for audit. */
export async function deleteExpiredAdminSessions(db: Db, now: Date): Promise<number> {
  const cutoff = unixSeconds(now) - ADMIN_SESSION_RETENTION_SECONDS;
  const rows = await db.delete(adminSessions).where(lt(adminSessions.exp, cutoff)).returning({ jti: adminSessions.jti });
  return rows.length;
}
