// Security headers, set in one place for every response: pages, fragments, JSON, static files,
// render-cache hits, redirects and errors (see docs/public-pages.md, "Security headers").
// A response that sets one of these headers itself keeps its own value.

import { Elysia } from "elysia";

/** The map tile server (static/map.js): the only image origin besides the site. */
export const MAP_TILE_ORIGIN = "https://tile.openstreetmap.org";

/**
 * The Content-Security-Policy: scripts only from the site's own files (no inline script, no
 * eval), images from the site and the tile server, no framing, no <base>, no plugins, forms post
 * to the site only. Inline `style` attributes are allowed (genre colours, the banner speed), but
 * not inline <style> elements.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  `img-src 'self' data: ${MAP_TILE_ORIGIN}`,
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
].join("; ");

/** HSTS in production: two years, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** Referrer policies a route may choose; pages with a token in their URL use `no-referrer`. */
export type ReferrerPolicy = "strict-origin-when-cross-origin" | "no-referrer";

/** The headers every response carries (HSTS only in production). */
export function securityHeaderSet(options: { production: boolean }): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "geolocation=(self)",
    ...(options.production ? { "strict-transport-security": STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/**
 * The global plugin: copies the header set onto every response before any handler runs, so early
 * answers (413 body cap, 404, errors) get them too. Elysia merges these into a returned Response
 * without overwriting the headers that Response already has.
 */
export function securityHeaders(options: { production: boolean }) {
  const headers = securityHeaderSet(options);
  return new Elysia({ name: "security-headers" })
    .onRequest(({ set }) => {
      Object.assign(set.headers, headers);
    })
    .as("global");
}

/**
 * The per-route option: `.get(path, handler, { referrerPolicy: "no-referrer" })` on pages whose
 * URL carries a token (partner statistics links), so the token never leaves in a Referer header.
 * Route files `.use(referrerPolicyOption)` to get it.
 */
export const referrerPolicyOption = new Elysia({ name: "referrer-policy-option" }).macro({
  referrerPolicy: (policy: ReferrerPolicy) => ({
    beforeHandle({ set }: { set: { headers: Record<string, string | number> } }) {
      set.headers["referrer-policy"] = policy;
    },
  }),
});
