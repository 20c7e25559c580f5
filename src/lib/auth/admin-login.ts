// Admin login and logout (see docs/auth-and-admin.md, "Admin login and sessions"): the key is
// checked under the per-IP login limit, then a session is started and its token handed back (cookie
// and Bearer).

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { RateLimiter } from "../rate-limit/fixed-window.ts";
import type { SigningKey } from "./jwt-key.ts";
import { limiterParts, RATE_LIMITS } from "../rate-limit/fixed-window.ts";
import { adminKeyMatches, type AdminPrincipal } from "./admin-credentials.ts";
import { revokeAdminSession, startAdminSession } from "./admin-sessions.ts";
import { SIGN_IN_MESSAGES } from "./sign-in.ts";
import { limited, refused, type Limited, type Refused } from "../outcome.ts";

/**
 * The outcome of a login attempt: the session, or a refusal (unauthorized when the console is off
 * or the key is wrong, alike; limited). Routes answer it as JSON or as the login form.
 */
export type AdminLoginOutcome = { ok: true; token: string; jti: string; exp: number; expiresAt: string; maxAge: number } | Refused<"unauthorized"> | Limited;

/** A login refused: the console is off or the key is wrong, told apart to no one. */
const UNAUTHORIZED = "Unauthorized";

/** What login and logout need. */
export interface AdminLoginDeps {
  config: Config;
  signingKey: SigningKey;
  db: Db;
  limiter: RateLimiter;
  log: Logger;
  now: () => Date;
  /** Until when (epoch ms) this process slows every attempt; one per process, built by buildDeps. */
  adminLoginBackstop: AdminLoginBackstop;
}

/** The global backstop's state (see backstopFailure). */
export interface AdminLoginBackstop {
  until: number;
  /** True while an attempt holds the one place the backstop leaves open. */
  busy?: boolean;
}

/** How long every attempt waits while the backstop is on. */
export const ADMIN_LOGIN_BACKSTOP_DELAY_MS = 1_000;

/**
 * The global backstop: once more than RATE_LIMITS.adminLoginFailures wrong keys (attempts
 * already over their IP's limit do not count, so one IP alone cannot set it off) happened within a
 * minute across every IP, every attempt waits ADMIN_LOGIN_BACKSTOP_DELAY_MS before its key is
 * compared, until that minute ends. A noisy IP is locked out by its own limit without locking
 * out the admins; many IPs together are slowed rather than let guess freely.
 */
async function backstopFailure(deps: Pick<AdminLoginDeps, "limiter" | "log">, state: { until: number }): Promise<void> {
  const failures = await deps.limiter.check(RATE_LIMITS.adminLoginFailures, ["all"], { failOpen: true });
  if (failures.status !== "blocked") return;
  const until = failures.resetAt.getTime();
  if (until > state.until) {
    deps.log.warn("admin-auth", "Admin login failures across all clients are over the backstop; every attempt is slowed down", {
      failures: failures.count,
      perSeconds: RATE_LIMITS.adminLoginFailures.windowSeconds,
      delayMs: ADMIN_LOGIN_BACKSTOP_DELAY_MS,
      until: failures.resetAt.toISOString(),
    });
  }
  state.until = Math.max(state.until, until);
}

/**
 * Checks a submitted key: admin disabled (ADMIN_KEY unset) → disabled; over the per-IP limit →
 * limited (every attempt counts, successful or not); wrong or missing key → rejected. While the
 * global backstop is on, attempts are taken one at a time, each delayed first; one arriving
 * meanwhile is limited at once.
 * The limiter fails open: when it cannot be reached the session store is down too and the
 * login fails there.
 */
export async function loginAdmin(deps: AdminLoginDeps, input: { key: unknown; ip: string; ua: string }): Promise<AdminLoginOutcome> {
  if (!deps.config.adminKey) return refused("unauthorized", UNAUTHORIZED);
  const backstop = deps.adminLoginBackstop;
  if (deps.now().getTime() >= backstop.until) return checkAdminLogin(deps, input);
  // The backstop is on: one attempt at a time, each after the delay, so at most one key a second
  // is compared however many clients guess in parallel (a hard bound per minute); an attempt
  // arriving while another holds the place is refused at once and may retry in a second, so the
  // real admin still gets in.
  if (backstop.busy) return limited(SIGN_IN_MESSAGES.tooMany, Math.ceil(ADMIN_LOGIN_BACKSTOP_DELAY_MS / 1000));
  backstop.busy = true;
  try {
    await Bun.sleep(ADMIN_LOGIN_BACKSTOP_DELAY_MS);
    return await checkAdminLogin(deps, input);
  } finally {
    backstop.busy = false;
  }
}

async function checkAdminLogin(deps: AdminLoginDeps, input: { key: unknown; ip: string; ua: string }): Promise<AdminLoginOutcome> {
  const backstop = deps.adminLoginBackstop;
  const limit = await deps.limiter.check(RATE_LIMITS.adminLoginIp, [limiterParts.ip(input.ip)], { failOpen: true });
  if (limit.status === "blocked") {
    deps.log.warn("admin-auth", "Admin login rate limited", { keyHash: limit.keyHash.slice(0, 12) });
    return limited(SIGN_IN_MESSAGES.tooMany, limit.retryAfter);
  }
  if (!adminKeyMatches(deps.config, input.key)) {
    deps.log.warn("admin-auth", "Admin login rejected");
    await backstopFailure(deps, backstop);
    return refused("unauthorized", UNAUTHORIZED);
  }
  const now = deps.now();
  const session = await startAdminSession({ db: deps.db, secret: deps.signingKey, now }, { ip: input.ip, ua: input.ua });
  deps.log.info("admin-auth", "Admin session started", { jti: session.jti, tv: session.tv });
  return { ok: true, token: session.token, jti: session.jti, exp: session.exp, expiresAt: new Date(session.exp * 1000).toISOString(), maxAge: session.exp - session.iat };
}

/** Revokes the caller's own session when it authenticated with a token; a key caller has none. */
export async function logoutAdmin(deps: Pick<AdminLoginDeps, "db" | "log" | "now">, principal: AdminPrincipal | undefined): Promise<{ revoked: boolean }> {
  if (principal?.via !== "token") return { revoked: false };
  const revoked = await revokeAdminSession(deps.db, principal.session.jti, deps.now());
  if (revoked) deps.log.info("admin-auth", "Admin session ended", { jti: principal.session.jti });
  return { revoked };
}
