// The visitor session token: HS256 JWT signed with AUTH_SECRET, 30 days, exactly these claims
// (email, v=1, iat, exp, aud finder:user, iss finder). Verification pins the algorithm, audience
// and issuer and requires every claim, so an admin token is never accepted here.

import { jwtVerify, SignJWT } from "jose";
import { hmacKey, MAX_TOKEN_LENGTH, unixSeconds, type SigningSecret } from "./jwt-key.ts";

/** Fixed values of the user token. */
export const USER_TOKEN = {
  audience: "finder:user",
  issuer: "finder",
  version: 1,
  ttlSeconds: 2_592_000,
} as const;

/** The verified content of a user token. */
export interface UserSession {
  email: string;
  iat: number;
  exp: number;
}

/** Signs a user token for an already normalised email, issued at `now`. */
export async function signUserToken(secret: SigningSecret, email: string, now: Date): Promise<{ token: string; iat: number; exp: number }> {
  const iat = unixSeconds(now);
  const exp = iat + USER_TOKEN.ttlSeconds;
  const token = await new SignJWT({ email, v: USER_TOKEN.version })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setAudience(USER_TOKEN.audience)
    .setIssuer(USER_TOKEN.issuer)
    .sign(await hmacKey(secret));
  return { token, iat, exp };
}

/**
 * Verifies a user token (any untrusted value: a cookie may be an object or a number after parsing).
 * Returns the session, or undefined for anything invalid: a bad token is never an error.
 */
export async function verifyUserToken(secret: SigningSecret, token: unknown, now: Date): Promise<UserSession | undefined> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ["HS256"],
      audience: USER_TOKEN.audience,
      issuer: USER_TOKEN.issuer,
      requiredClaims: ["email", "v", "iat", "exp"],
      currentDate: now,
    });
    const { email, v, iat, exp, aud } = payload;
    if (aud !== USER_TOKEN.audience || v !== USER_TOKEN.version) return undefined;
    if (typeof email !== "string" || email.length === 0 || email.length > 254) return undefined;
    if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) return undefined;
    return { email, iat: iat as number, exp: exp as number };
  } catch {
    return undefined;
  }
}
