// Partner statistics tokens (see docs/placements.md, "Partner statistics"): the token of an
// activation is derived from AUTH_SECRET and the order id, so the database keeps only its SHA-256
// and the outbox keeps only the order id; the link is written out when it is shown (once, in the
// console's answer to the activation) or sent (the partner's emails, rendered at send time).

import { secretsEqual, sha256Hex } from "../crypto.ts";
import type { Config } from "../config.ts";
import { partnerStatsLink, partnerStatsToken } from "../mail/secret-links.ts";

export { partnerStatsToken } from "../mail/secret-links.ts";

/** The stored form of a token (`paid_orders.partner_stats_token_hash`); the migration computed the same for tokens issued before. */
export function partnerTokenDigest(token: string): string {
  return sha256Hex(token);
}

/** The digest an order's derived token has. */
export function partnerTokenHashOf(secret: string, orderId: string): string {
  return partnerTokenDigest(partnerStatsToken(secret, orderId));
}

/** True when `token` is the one whose digest is stored (compared in constant time). */
export function partnerTokenMatches(token: string, storedHash: string | null | undefined): boolean {
  return secretsEqual(partnerTokenDigest(token), storedHash);
}

/**
 * The statistics link of an order, or null when it has none or its token is not the derived one
 * (a link issued before tokens were derived: only the partner holds it now).
 */
export function partnerStatsUrl(config: Pick<Config, "siteUrl" | "basePath" | "authSecret">, order: { id: string; partnerStatsTokenHash: string | null }): string | null {
  if (!order.partnerStatsTokenHash) return null;
  const token = partnerStatsToken(config.authSecret, order.id);
  if (!partnerTokenMatches(token, order.partnerStatsTokenHash)) return null;
  return partnerStatsLink(config, order.id, token);
}
