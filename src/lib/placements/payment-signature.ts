// Verifies the payment provider's Stripe-compatible `payment-signature` header over the raw request
// bytes, before anything parses them (see docs/placements.md, "Payment webhook").

import { createHmac, timingSafeEqual } from "node:crypto";

/** Largest allowed distance between the signed timestamp and now, either direction. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The parts of a well-formed header: one timestamp and every `v1` signature. */
export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

const ITEM = /^([A-Za-z0-9]+)=([^\s,=]+)$/;
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Strict on purpose: an item with spaces, a
 * repeated `t`, or no `v1` makes the header malformed (a header sent twice arrives joined by ", "
 * and is refused). Other schemes such as `v0` are ignored.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | undefined {
  if (typeof header !== "string" || header.length === 0 || header.length > 4096) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(",")) {
    const match = ITEM.exec(item);
    if (!match) return undefined;
    const [, scheme, value] = match as unknown as [string, string, string];
    if (scheme === "t") {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (scheme === "v1") {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Hex HMAC-SHA256 of `<t>.<raw body>` keyed with the secret. */
export function expectedSignature(secret: string, timestamp: number, rawBody: Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * True when any `v1` matches the expected signature (constant-time comparison of equal-length
 * digests) and the timestamp is within 300 s of `nowSeconds`.
 */
export function verifyPaymentSignature(rawBody: Uint8Array, header: string | null | undefined, secret: string, nowSeconds: number): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(nowSeconds - parsed.timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(expectedSignature(secret, parsed.timestamp, rawBody), "hex");
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (!HEX64.test(candidate)) continue;
    // Every candidate is compared, so the time taken does not depend on which one matches.
    if (timingSafeEqual(Buffer.from(candidate, "hex"), expected)) matched = true;
  }
  return matched;
}
