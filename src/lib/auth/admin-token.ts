// The admin session token: HS256 JWT signed with AUTH_SECRET, 1 hour, claims type "admin", jti
// (UUID v4), tv (token version), iat, exp, aud admin-api, iss finder. This module checks the token
// alone; admin-sessions.ts checks it against its session record and the global version.

import { jwtVerify, SignJWT } from "jose";
import { hmacKey, MAX_TOKEN_LENGTH, unixSeconds, type SigningSecret } from "./jwt-key.ts";

/** Fixed values of the admin token. */
export const ADMIN_TOKEN = {
  audience: "admin-api",
  issuer: "finder",
  type: "admin",
  ttlSeconds: 3600,
} as const;

/** The claims of an admin token that the session check needs. */
export interface AdminTokenClaims {
  jti: string;
  tv: number;
  iat: number;
  exp: number;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** True for a lower-case UUID version 4, the only form of jti the service mints. */
export function isUuidV4(value: unknown): value is string {
  return typeof value === "string" && UUID_V4.test(value);
}

/** Signs an admin token for a new session issued at `now` with token version `tv`. */
export async function signAdminToken(secret: SigningSecret, input: { jti: string; tv: number; now: Date }): Promise<{ token: string } & AdminTokenClaims> {
  const iat = unixSeconds(input.now);
  const exp = iat + ADMIN_TOKEN.ttlSeconds;
  const token = await new SignJWT({ type: ADMIN_TOKEN.type, tv: input.tv })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(input.jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setAudience(ADMIN_TOKEN.audience)
    .setIssuer(ADMIN_TOKEN.issuer)
    .sign(await hmacKey(secret));
  return { token, jti: input.jti, tv: input.tv, iat, exp };
}

/**
 * Verifies signature (HS256 only), audience, issuer, expiry (exp > now) and the presence and
 * shape of type, jti, tv, iat and exp. Returns undefined for anything else, never throws.
 */
export async function verifyAdminToken(secret: SigningSecret, token: unknown, now: Date): Promise<AdminTokenClaims | undefined> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ["HS256"],
      audience: ADMIN_TOKEN.audience,
      issuer: ADMIN_TOKEN.issuer,
      requiredClaims: ["type", "jti", "tv", "iat", "exp"],
      currentDate: now,
    });
    const { type, jti, tv, iat, exp, aud } = payload;
    if (aud !== ADMIN_TOKEN.audience || type !== ADMIN_TOKEN.type || !isUuidV4(jti)) return undefined;
    if (!Number.isSafeInteger(tv) || (tv as number) < 1) return undefined;
    if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) return undefined;
    return { jti, tv: tv as number, iat: iat as number, exp: exp as number };
  } catch {
    return undefined;
  }
}
