// The same-origin rule shared by every browser-facing state change that a cross-site page could
// forge (see docs/auth-and-admin.md, "CSRF"): the admin routes authenticated by cookie, visitor
// sign-in and the submission form.

import { siteOrigin, type Config } from "../config.ts";

/** The origin a request claims: its Origin header, else its Referer's origin; undefined without either. */
function claimedOrigin(request: Request): string | undefined {
  const origin = request.headers.get("origin");
  if (origin) return origin;
  const referer = request.headers.get("referer");
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}

function isOwnOrigin(config: Pick<Config, "siteUrl">, request: Request, origin: string): boolean {
  if (origin === "null") return false;
  if (origin === siteOrigin(config)) return true;
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

/**
 * True when the Origin (or, without it, the Referer's origin) is the site's configured origin or
 * the request's own host. Both are same-origin tests a cross-site page cannot satisfy; accepting
 * the request's own host keeps a page opened under another name than NEXT_PUBLIC_SITE_URL
 * (localhost vs 127.0.0.1) working. A request naming no origin at all is refused.
 */
export function isSameOriginRequest(config: Pick<Config, "siteUrl">, request: Request): boolean {
  const origin = claimedOrigin(request);
  return origin !== undefined && isOwnOrigin(config, request, origin);
}

/**
 * True when a request comes from another site's page: it names an origin (Origin, else Referer)
 * and that origin is not ours, or it is the opaque origin "null". Browsers name the origin of
 * every cross-site POST, so a request naming none comes from a non-browser client (curl, a
 * server), which a forged page cannot use; those are let through.
 */
export function isCrossSiteRequest(config: Pick<Config, "siteUrl">, request: Request): boolean {
  const origin = claimedOrigin(request);
  return origin !== undefined && !isOwnOrigin(config, request, origin);
}
