// Admin login and logout (see docs/auth-and-admin.md, "Admin login and sessions"): the key is
// checked under the per-IP login limit, then a session is started and its token handed back (cookie
// and Bearer).

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { RateLimiter } from "../rate-limit.ts";
import type { SigningKey } from "./jwt-key.ts";
import { limiterParts, RATE_LIMITS } from "../rate-limit.ts";
import { adminKeyMatches, type AdminPrincipal } from "./admin-credentials.ts";
import { revokeAdminSession, startAdminSession } from "./admin-sessions.ts";

/** The outcome of a login attempt; routes map it to JSON or to the login form. */
export type AdminLoginOutcome =
  | { kind: "disabled" }
  | { kind: "limited"; retryAfter: number }
  | { kind: "rejected" }
  | { kind: "ok"; token: string; jti: string; exp: number; expiresAt: string; maxAge: number };

/** What login and logout need. */
export interface AdminLoginDeps {
  config: Config;
  signingKey: SigningKey;
  db: Db;
  limiter: RateLimiter;
  log: Logger;
  now: () => Date;
}

/**
 * Checks a submitted key: admin disabled (ADMIN_KEY unset) → disabled; over the per-IP limit →
 * limited (every attempt counts, successful or not); wrong or missing key → rejected.
 * The limiter fails open: when it cannot be reached the session store is down too and the
 * login fails there.
 */
export async function loginAdmin(deps: AdminLoginDeps, input: { key: unknown; ip: string; ua: string }): Promise<AdminLoginOutcome> {
  if (!deps.config.adminKey) return { kind: "disabled" };
  const limit = await deps.limiter.check(RATE_LIMITS.adminLoginIp, [limiterParts.ip(input.ip)], { failOpen: true });
  if (limit.status === "blocked") {
    deps.log.warn("admin-auth", "Admin login rate limited", { keyHash: limit.keyHash.slice(0, 12) });
    return { kind: "limited", retryAfter: limit.retryAfter };
  }
  if (!adminKeyMatches(deps.config, input.key)) {
    deps.log.warn("admin-auth", "Admin login rejected");
    return { kind: "rejected" };
  }
  const now = deps.now();
  const session = await startAdminSession({ db: deps.db, secret: deps.signingKey, now }, { ip: input.ip, ua: input.ua });
  deps.log.info("admin-auth", "Admin session started", { jti: session.jti, tv: session.tv });
  return { kind: "ok", token: session.token, jti: session.jti, exp: session.exp, expiresAt: new Date(session.exp * 1000).toISOString(), maxAge: session.exp - session.iat };
}

/** Revokes the caller's own session when it authenticated with a token; a key caller has none. */
export async function logoutAdmin(deps: Pick<AdminLoginDeps, "db" | "log" | "now">, principal: AdminPrincipal | undefined): Promise<{ revoked: boolean }> {
  if (principal?.via !== "token") return { revoked: false };
  const revoked = await revokeAdminSession(deps.db, principal.session.jti, deps.now());
  if (revoked) deps.log.info("admin-auth", "Admin session ended", { jti: principal.session.jti });
  return { revoked };
}
