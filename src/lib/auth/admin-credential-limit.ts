// The per-IP limit on admin credentials sent with a request (see docs/auth-and-admin.md, "Rate
// limits", "Admin credentials in headers"): a wrong X-Admin-Key or Bearer token counts as a failure
// in the login form's own bucket (RATE_LIMITS.adminLoginIp, one budget per IP for every way of
// guessing the key); a right one never counts. Once an IP is over that limit, its credentials are
// compared at most once a second (the same pace as the login backstop): the rest answer 429 unread,
// so guessing is bounded while the real admin behind that IP still gets in on a retry.

import type { RateLimiter } from "../rate-limit/fixed-window.ts";
import { limiterParts, RATE_LIMITS } from "../rate-limit/fixed-window.ts";
import type { Logger } from "../logger.ts";
import { ADMIN_LOGIN_BACKSTOP_DELAY_MS } from "./admin-login.ts";
import { bearerToken, resolveAdminCredential, type AdminCredentialDeps, type AdminResolution } from "./admin-credentials.ts";

/** How often an IP over its limit may still have a credential compared. */
export const OVER_LIMIT_COMPARE_INTERVAL_MS = ADMIN_LOGIN_BACKSTOP_DELAY_MS;

/** IPs over their limit remembered per process (by limiter key hash, never the raw IP). */
const MAX_TRACKED_IPS = 10_000;

/** One IP over its limit. */
export interface OverLimit {
  /** When the IP's window ends (epoch ms). */
  until: number;
  /** When one of its credentials was last compared (epoch ms). */
  compared: number;
}

/** The IPs over their limit, by limiter key hash: one table per process (deps.adminOverLimit), so each app (and each test's app) has its own. */
export type OverLimitTable = Map<string, OverLimit>;

function remember(table: OverLimitTable, keyHash: string, entry: OverLimit, now: number): void {
  table.delete(keyHash);
  if (table.size >= MAX_TRACKED_IPS) {
    for (const [key, old] of table) if (old.until <= now) table.delete(key);
    // Still full: the oldest entry goes (Map keeps insertion order).
    if (table.size >= MAX_TRACKED_IPS) table.delete(table.keys().next().value!);
  }
  table.set(keyHash, entry);
}

/** What the limited check needs besides the credential deps. */
export interface AdminCredentialLimitDeps extends AdminCredentialDeps {
  limiter: RateLimiter;
  log: Logger;
  adminOverLimit: OverLimitTable;
}

/** A resolved credential, or a refusal before (or instead of) comparing it. */
export type LimitedResolution = AdminResolution | { limited: true; retryAfter: number; disabled: false };

/** True when the request sends a credential in a header (X-Admin-Key or Authorization: Bearer). */
function sendsHeaderCredential(request: Request): boolean {
  return Boolean(request.headers.get("x-admin-key")) || bearerToken(request.headers.get("authorization")) !== undefined;
}

/**
 * Resolves the admin credential of a request from `ip` under the per-IP failure limit. Only header
 * credentials count: the cookie is sent by the browser on its own (an expired one must not lock an
 * admin out) and is never compared with the key. Throws only when the session store cannot be read.
 */
export async function resolveLimitedAdminCredential(deps: AdminCredentialLimitDeps, request: Request, cookieValue: unknown, ip: string): Promise<LimitedResolution> {
  if (!deps.config.adminKey || !sendsHeaderCredential(request)) return resolveAdminCredential(deps, request, cookieValue);
  const rule = RATE_LIMITS.adminLoginIp;
  const parts = [limiterParts.ip(ip)];
  const table = deps.adminOverLimit;
  const now = deps.now().getTime();
  // The key's HMAC is only needed once some IP is over its limit, or after a failure.
  let keyHash = table.size > 0 ? deps.limiter.keyFor(rule, parts) : undefined;
  let over = keyHash === undefined ? undefined : table.get(keyHash);
  // The table is only a hint of which IPs to pace: the shared counter decides (another instance, or
  // an ended window, may have moved on).
  if (over && (over.until <= now || !(await deps.limiter.isOver(rule, parts)))) {
    table.delete(keyHash!);
    over = undefined;
  }
  if (over) {
    const wait = over.compared + OVER_LIMIT_COMPARE_INTERVAL_MS - now;
    if (wait > 0) return { limited: true, retryAfter: Math.ceil(wait / 1000), disabled: false };
    over.compared = now;
  }
  const resolution = await resolveAdminCredential(deps, request, cookieValue);
  if (resolution.principal) return resolution;
  const limit = await deps.limiter.check(rule, parts, { failOpen: true });
  if (limit.status !== "blocked") return resolution;
  keyHash = limit.keyHash;
  if (!over) deps.log.warn("admin-auth", "Admin credentials from one client are over the limit", { keyHash: keyHash.slice(0, 12), until: limit.resetAt.toISOString() });
  remember(table, keyHash, { until: limit.resetAt.getTime(), compared: now }, now);
  return { limited: true, retryAfter: limit.retryAfter, disabled: false };
}

/** True for a refusal of an IP over its limit. */
export function isLimited(resolution: LimitedResolution): resolution is { limited: true; retryAfter: number; disabled: false } {
  return "limited" in resolution;
}
