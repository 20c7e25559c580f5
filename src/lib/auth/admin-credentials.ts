// Admin credential resolution and the CSRF origin rule (see docs/auth-and-admin.md, "The guard" and
// "CSRF"): which of the three credential types a request carries, and whether it is valid.

import type { Config } from "../config.ts";
import { secretsEqual } from "../crypto.ts";
import { checkAdminToken, type AdminSessionLookup } from "./admin-sessions.ts";
import type { SigningKey } from "./jwt-key.ts";
import type { AdminTokenClaims } from "./admin-token.ts";
import { cookieText } from "./cookies.ts";

/** Keys longer than this are never compared (an admin key is a short secret). */
export const MAX_ADMIN_KEY_LENGTH = 512;

/** Where a token came from. */
export type AdminTokenCarrier = "x-admin-key" | "authorization" | "cookie";

/** A valid admin caller: the key itself, or a token with its session claims. */
export type AdminPrincipal = { via: "key" } | { via: "token"; carrier: AdminTokenCarrier; session: AdminTokenClaims };

/** The resolution of a request: `disabled` when ADMIN_KEY is unset. */
export interface AdminResolution {
  principal?: AdminPrincipal;
  disabled: boolean;
}

/**
 * Compares a submitted key with ADMIN_KEY, both trimmed, in constant time (both sides are hashed
 * first). Over-long or non-string input is refused before any hashing.
 */
export function adminKeyMatches(config: Pick<Config, "adminKey">, provided: unknown): boolean {
  if (!config.adminKey || typeof provided !== "string" || provided.length > MAX_ADMIN_KEY_LENGTH) return false;
  return secretsEqual(provided.trim(), config.adminKey.trim());
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(header: string | null): string | undefined {
  if (!header) return undefined;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** What resolving an admin credential needs. */
export interface AdminCredentialDeps {
  config: Config;
  adminSessionLookup: AdminSessionLookup;
  signingKey: SigningKey;
  now: () => Date;
}

/**
 * Resolves the admin credential of a request: X-Admin-Key equal to ADMIN_KEY is enough; otherwise
 * the first present of X-Admin-Key, Authorization: Bearer and the admin cookie is checked as a
 * token. Throws only when the session store cannot be read.
 */
export async function resolveAdminCredential(deps: AdminCredentialDeps, request: Request, cookieValue: unknown): Promise<AdminResolution> {
  if (!deps.config.adminKey) return { disabled: true };
  const headerKey = request.headers.get("x-admin-key") || undefined;
  if (headerKey !== undefined && adminKeyMatches(deps.config, headerKey)) return { disabled: false, principal: { via: "key" } };

  let carrier: AdminTokenCarrier;
  let token: string | undefined;
  if (headerKey !== undefined) {
    carrier = "x-admin-key";
    token = headerKey;
  } else if ((token = bearerToken(request.headers.get("authorization")))) {
    carrier = "authorization";
  } else if ((token = cookieText(cookieValue))) {
    carrier = "cookie";
  } else {
    return { disabled: false };
  }
  const session = await checkAdminToken(deps.adminSessionLookup, deps.signingKey, token, deps.now());
  return session ? { disabled: false, principal: { via: "token", carrier, session } } : { disabled: false };
}

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** True for a method that may change state. */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The CSRF rule for cookie-authenticated state changes (shared with sign-in and submissions). */
export { isSameOriginRequest } from "../http/origin.ts";

/** True when a request needs the CSRF check: a state change authenticated only by the cookie. */
export function needsOriginCheck(request: Request, principal: AdminPrincipal): boolean {
  return isStateChanging(request.method) && principal.via === "token" && principal.carrier === "cookie";
}
