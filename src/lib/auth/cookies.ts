// Session cookie names and options for visitors and admins (see docs/auth-and-admin.md).

import type { Config } from "../config.ts";

/** The visitor session cookie (user token, 30 days). */
export const USER_SESSION_COOKIE = "finder_user_session";

/** The admin browser session cookie (admin token, 1 hour). */
export const ADMIN_SESSION_COOKIE = "finder_admin_session";

/** Options Elysia's cookie API takes when setting or clearing a session cookie. */
export interface SessionCookieOptions {
  value: string;
  httpOnly: true;
  sameSite: "lax";
  path: "/";
  maxAge: number;
  secure: boolean;
}

/** A session cookie carrying `value` for `maxAge` seconds; Secure only in production. */
export function sessionCookie(config: Pick<Config, "isProduction">, value: string, maxAge: number): SessionCookieOptions {
  return { value, httpOnly: true, sameSite: "lax", path: "/", maxAge, secure: config.isProduction };
}

/** The same cookie emptied with Max-Age 0, which makes the browser drop it. */
export function clearedSessionCookie(config: Pick<Config, "isProduction">): SessionCookieOptions {
  return sessionCookie(config, "", 0);
}

/**
 * A cookie value as a string, or undefined. Elysia parses cookies that look like JSON into
 * objects or numbers, so anything that is not a non-empty string is treated as absent.
 */
export function cookieText(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
