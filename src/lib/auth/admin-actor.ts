// The name an admin action is recorded under (revisions, reviews, settings, orders, placements): the session's jti for a
// signed-in admin, "admin-key" for a caller using the key itself.

import type { AdminPrincipal } from "./admin-credentials.ts";

/** The actor recorded for an admin principal. */
export function actorOf(principal: AdminPrincipal): string {
  return principal.via === "token" ? principal.session.jti : "admin-key";
}
