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
 * not inline <style> elements. The service worker (/sw.js) and the web app manifest come from the
 * site itself (named here, rather than left to default-src, so a later change cannot drop them).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  `img-src 'self' data: ${MAP_TILE_ORIGIN}`,
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
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
 * The global plugin. Every request starts with the headers in Elysia's `set.headers`, so early
 * answers (the body cap, the admin guard) and errors carry them. A Response a handler returns
 * gets them written into it in place instead, and they are taken out of `set.headers`: otherwise
 * Elysia rebuilds every such Response around a body stream, which cost about 15 % of cached-page
 * throughput. A value a route chose (the `referrerPolicy` option, or a header of its own
 * Response) is kept.
 */
export function securityHeaders(options: { production: boolean }) {
  const entries = Object.entries(securityHeaderSet(options));
  return new Elysia({ name: "security-headers" })
    .onRequest(({ set }) => {
      for (const [name, value] of entries) set.headers[name] = value;
    })
    .mapResponse(({ responseValue, set }) => {
      if (!(responseValue instanceof Response)) return;
      const chosen = set.headers as Record<string, string | number | undefined>;
      for (const [name, value] of entries) {
        if (!responseValue.headers.has(name)) responseValue.headers.set(name, String(chosen[name] ?? value));
        delete chosen[name];
      }
      return responseValue;
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
