// The HS256 signing key derived from AUTH_SECRET. WebCrypto import is the most expensive step of
// a verification when repeated per request, so `buildDeps` imports it once (`deps.signingKey`)
// and the request paths pass that; a plain secret string (scripts, tests) is imported per call.

/** Largest token accepted for verification; longer strings are rejected without parsing. */
export const MAX_TOKEN_LENGTH = 4096;

/** AUTH_SECRET with its HMAC-SHA256 key, imported once. */
export interface SigningKey {
  readonly secret: string;
  readonly key: Promise<CryptoKey>;
}

/** A secret to sign or verify with: the prepared key, or the secret text itself. */
export type SigningSecret = string | SigningKey;

function importHmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Imports the key of `secret` once. */
export function createSigningKey(secret: string): SigningKey {
  return { secret, key: importHmacKey(secret) };
}

/** The HMAC-SHA256 key for a secret or a prepared signing key. */
export function hmacKey(secret: SigningSecret): Promise<CryptoKey> {
  return typeof secret === "string" ? importHmacKey(secret) : secret.key;
}

/** Whole Unix seconds of a date. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
