// Small cryptographic helpers: HMAC keys, hashes and constant-time comparison of secrets.

import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** Lowercase hex HMAC-SHA256 of `message` keyed with `secret`. */
export function hmacHex(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** Lowercase hex SHA-256. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * Compares two secrets in constant time: both are hashed first, so neither the length nor the
 * content of the expected value leaks through timing.
 */
export function secretsEqual(provided: string | undefined | null, expected: string | undefined | null): boolean {
  if (typeof provided !== "string" || typeof expected !== "string" || expected.length === 0) return false;
  const a = createHash("sha256").update(provided).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
