// Who is tracking: the signed-in visitor behind a finder_user_session cookie, if any. Verified
// tokens are remembered (bounded, until their exp) so a signed-in visitor's beacons do not pay a
// signature check each; a token that fails verification is never remembered.

import { USER_SESSION_COOKIE } from "../auth/cookies.ts";
import { verifyUserToken } from "../auth/user-token.ts";
import type { SigningSecret } from "../auth/jwt-key.ts";

const MAX_REMEMBERED = 10_000;

/** Reads one cookie from a Cookie header without parsing the others (or JSON-looking values). */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header || !header.includes(name)) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface VisitorResolver {
  /**
   * The signed-in visitor's email for this request's cookie, or undefined. Synchronous without a
   * cookie or for a token already verified; a promise while a new token is verified.
   */
  emailFor(request: Request): string | undefined | Promise<string | undefined>;
}

/** Builds a resolver for AUTH_SECRET and the clock. */
export function createVisitorResolver(secret: SigningSecret, now: () => Date): VisitorResolver {
  const remembered = new Map<string, { email: string; exp: number }>();
  return {
    emailFor(request) {
      const token = readCookie(request.headers.get("cookie"), USER_SESSION_COOKIE);
      if (!token) return undefined;
      const at = now();
      const known = remembered.get(token);
      if (known && known.exp * 1000 > at.getTime()) return known.email;
      return verifyUserToken(secret, token, at).then((session) => {
        if (!session) return undefined;
        const email = session.email.trim().toLowerCase();
        if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
        remembered.set(token, { email, exp: session.exp });
        return email;
      });
    },
  };
}
