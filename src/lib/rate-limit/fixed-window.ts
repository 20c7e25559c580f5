// Fixed-window rate limiting on Postgres: one atomic upsert per check, keys are HMACs (see
// docs/auth-and-admin.md, "Rate limits"). Counters live in the database so several instances share
// them; raw IPs and emails never reach it.

import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateLimitCounters } from "../db/schema/index.ts";
import ipaddr from "ipaddr.js";
import { hmacHex } from "../crypto.ts";
import type { Logger } from "../logger.ts";

/** A named limit: `limit` hits per `windowSeconds`, the window starting at the first hit. */
export interface RateLimitRule {
  scope: string;
  limit: number;
  windowSeconds: number;
}

/** Every limit of the service, by scope. */
export const RATE_LIMITS = {
  authVerifyIp: { scope: "auth_verify_ip", limit: 60, windowSeconds: 60 },
  authVerifyEmailIp: { scope: "auth_verify_email_ip", limit: 6, windowSeconds: 900 },
  adminLoginIp: { scope: "admin_login_ip", limit: 10, windowSeconds: 900 },
  /** Failed admin logins across every IP: past the limit every attempt is slowed (the backstop). */
  adminLoginFailures: { scope: "admin_login_failures", limit: 20, windowSeconds: 60 },
  eventSubmitIp: { scope: "event_submit_ip", limit: 20, windowSeconds: 600 },
  eventSubmitEmailIp: { scope: "event_submit_email_ip", limit: 5, windowSeconds: 3600 },
  eventSubmitFingerprint: { scope: "event_submit_fingerprint", limit: 1, windowSeconds: 86400 },
  eventReportIp: { scope: "event_report_ip", limit: 10, windowSeconds: 600 },
  /** The same visitor reporting the same event again. */
  eventReportEventIp: { scope: "event_report_event_ip", limit: 3, windowSeconds: 3600 },
  trackEventIp: { scope: "track_event_ip", limit: 240, windowSeconds: 60 },
  trackEventSession: { scope: "track_event_session", limit: 200, windowSeconds: 60 },
  trackDiscoveryIp: { scope: "track_discovery_ip", limit: 180, windowSeconds: 60 },
  trackDiscoverySession: { scope: "track_discovery_session", limit: 150, windowSeconds: 60 },
  userPreferenceIp: { scope: "user_preference_ip", limit: 120, windowSeconds: 60 },
  ogImageIp: { scope: "og_image_ip", limit: 120, windowSeconds: 3600 },
} as const satisfies Record<string, RateLimitRule>;

/** The outcome of one check. `unavailable` means the store could not be asked. */
export type RateLimitResult =
  | { status: "allowed" | "blocked"; allowed: boolean; count: number; remaining: number; retryAfter: number; resetAt: Date; keyHash: string }
  | { status: "unavailable"; allowed: boolean; keyHash: string };

export interface RateLimiter {
  /**
   * Counts one hit for `parts` under `rule`. When the store is unavailable the result is
   * `allowed: failOpen`: each route picks its own behaviour (see the "Limiter unavailable" column of docs/auth-and-admin.md).
   * `db`: the transaction the hit is counted in (a write that is rolled back takes its hits back).
   */
  check(rule: RateLimitRule, parts: readonly string[], options: { failOpen: boolean; db?: Db }): Promise<RateLimitResult>;
  /**
   * Whether `parts` are over `rule` now, without counting a hit (false when the window ended, when
   * there is no counter, or when the store cannot be asked).
   */
  isOver(rule: RateLimitRule, parts: readonly string[]): Promise<boolean>;
  /** The counter key for these parts (hex HMAC-SHA256 of scope and parts joined by "|"). */
  keyFor(rule: RateLimitRule, parts: readonly string[]): string;
  /** Deletes counters whose window ended more than `graceSeconds` ago; returns how many. */
  cleanup(graceSeconds?: number): Promise<number>;
}

export interface RateLimiterDeps {
  db: Db;
  secret: string;
  log: Logger;
  now: () => Date;
}

export const RATE_LIMIT_CLEANUP_GRACE_SECONDS = 86400;

/**
 * The limiter part of a client IP: an IPv4 address as it is, an IPv6 address by its /64 network
 * (one subscriber line holds a whole /64, so rotating within it must not buy new buckets).
 */
function ipPart(ip: string): string {
  const trimmed = ip.trim();
  if (!trimmed) return "unknown";
  if (!trimmed.includes(":") || !ipaddr.IPv6.isValid(trimmed)) return trimmed;
  const parts = ipaddr.IPv6.parse(trimmed).parts;
  return `${parts.slice(0, 4).map((p) => p.toString(16)).join(":")}::/64`;
}

/** Normalises limiter key parts: IP as ipPart (empty → unknown), email trimmed and lower-cased. */
export const limiterParts = {
  ip: ipPart,
  email: (email: string) => email.trim().toLowerCase(),
  session: (sessionId: string) => sessionId.trim() || "unknown",
  fingerprint: (fp: string) => fp.toLowerCase(),
};

/** The stored key of a limiter bucket: an HMAC of the scope and the normalised parts (raw IPs and ids never reach the table). Both limiters write it. */
export function rateLimitKey(secret: string, rule: RateLimitRule, parts: readonly string[]): string {
  return hmacHex(secret, [rule.scope, ...parts].join("|"));
}

/** Builds the Postgres-backed limiter. */
export function createRateLimiter(deps: RateLimiterDeps): RateLimiter {
  const keyFor = (rule: RateLimitRule, parts: readonly string[]) => rateLimitKey(deps.secret, rule, parts);

  return {
    keyFor,
    async check(rule, parts, { failOpen, db = deps.db }) {
      const keyHash = keyFor(rule, parts);
      const now = deps.now();
      const resetCandidate = new Date(now.getTime() + rule.windowSeconds * 1000);
      try {
        // First hit, or a window that has ended, starts a new window at count 1; otherwise +1.
        // Blocked hits still count; the window never extends.
        const rows = await db
          .insert(rateLimitCounters)
          .values({ scope: rule.scope, keyHash, windowSeconds: rule.windowSeconds, count: 1, resetAt: resetCandidate, updatedAt: now })
          .onConflictDoUpdate({
            target: [rateLimitCounters.scope, rateLimitCounters.keyHash, rateLimitCounters.windowSeconds],
            set: {
              count: sql`case when ${rateLimitCounters.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimitCounters.count} + 1 end`,
              resetAt: sql`case when ${rateLimitCounters.resetAt} <= ${now.toISOString()}::timestamptz then excluded.reset_at else ${rateLimitCounters.resetAt} end`,
              updatedAt: now,
            },
          })
          .returning({ count: rateLimitCounters.count, resetAt: rateLimitCounters.resetAt });
        const { count, resetAt } = rows[0];
        const allowed = count <= rule.limit;
        const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
        return { status: allowed ? "allowed" : "blocked", allowed, count, remaining: Math.max(0, rule.limit - count), retryAfter, resetAt, keyHash };
      } catch (error) {
        // Only the hashed key is logged: the parts may hold an IP or an email.
        deps.log.warn("rate-limit", "Rate limiter unavailable", { scope: rule.scope, keyHash: keyHash.slice(0, 12), failOpen }, error);
        return { status: "unavailable", allowed: failOpen, keyHash };
      }
    },
    async isOver(rule, parts) {
      const now = deps.now();
      try {
        const rows = await deps.db
          .select({ count: rateLimitCounters.count })
          .from(rateLimitCounters)
          .where(and(eq(rateLimitCounters.scope, rule.scope), eq(rateLimitCounters.keyHash, keyFor(rule, parts)), eq(rateLimitCounters.windowSeconds, rule.windowSeconds), gt(rateLimitCounters.resetAt, now)));
        return (rows[0]?.count ?? 0) > rule.limit;
      } catch {
        return false;
      }
    },
    async cleanup(graceSeconds = RATE_LIMIT_CLEANUP_GRACE_SECONDS) {
      const cutoff = new Date(deps.now().getTime() - graceSeconds * 1000);
      const rows = await deps.db.delete(rateLimitCounters).where(lt(rateLimitCounters.resetAt, cutoff)).returning({ scope: rateLimitCounters.scope });
      return rows.length;
    },
  };
}
