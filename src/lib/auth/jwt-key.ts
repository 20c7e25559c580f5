// The HS256 signing key derived from AUTH_SECRET, imported once per secret (WebCrypto import is
// the most expensive step of a verification when repeated per request).

const keys = new Map<string, Promise<CryptoKey>>();

/** Largest token accepted for verification; longer strings are rejected without parsing. */
export const MAX_TOKEN_LENGTH = 4096;

/** The HMAC-SHA256 key for `secret`. */
export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/** Whole Unix seconds of a date. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
