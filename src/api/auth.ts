// Visitor sign-in API (see docs/auth-and-admin.md, "Visitor sign-in"): verify an email and set the
// session cookie, read the session, sign out. Every answer carries the no-store headers.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, readJson, refusalJson, requestRefusalJson } from "../lib/http/responses.ts";
import { clientIp } from "../lib/client-ip.ts";
import { isCrossSiteRequest } from "../lib/http/origin.ts";
import { signInVisitor, SIGN_IN_MESSAGES, type SignInOutcome } from "../lib/auth/sign-in.ts";
import { clearedSessionCookie, sessionCookie, USER_SESSION_COOKIE, ADMIN_SESSION_COOKIE, type SessionCookieOptions } from "../lib/auth/cookies.ts";
import { verifyUserToken } from "../lib/auth/user-token.ts";
import { isLimited, resolveLimitedAdminCredential } from "../lib/auth/admin-credential-limit.ts";

/** The JSON answer of a sign-in; on success the session cookie is set through `setCookie`. */
function verifyAnswer(deps: Pick<Deps, "config">, outcome: SignInOutcome, setCookie: (options: SessionCookieOptions) => void): Response {
  if (!outcome.ok) return refusalJson(outcome);
  setCookie(sessionCookie(deps.config, outcome.token, outcome.maxAge));
  return jsonNoStore({ success: true, email: outcome.email, message: SIGN_IN_MESSAGES.verified });
}

/** POST /api/auth/verify, GET /api/auth/session, DELETE /api/auth/session */
export function authApi(deps: Deps) {
  return new Elysia({ name: "auth-api" })
    .post(
      "/api/auth/verify",
      async ({ request, cookie, server }) => {
        // Login CSRF: another site's page must not sign a visitor into an address of its choosing.
        if (isCrossSiteRequest(deps.config, request)) return requestRefusalJson("cross_site", SIGN_IN_MESSAGES.crossSite);
        const outcome = await signInVisitor(deps, await readJson(request), clientIp(deps.config, request, server));
        return verifyAnswer(deps, outcome, (options) => cookie[USER_SESSION_COOKIE].set(options));
      },
      // The body is read by the handler: the per-IP limit comes before any "invalid payload" answer.
      {
        parse: "none",
        detail: { tags: ["site"], summary: "Sign in with an email", description: "JSON `{email, firstName?, lastName?, consent}`; sets the session cookie and answers `{success, email, message}`. 400 with `issues`, 403 cross-site, 429 with Retry-After." },
      },
    )
    .get("/api/auth/session", async ({ request, cookie, server }) => {
      const user = await verifyUserToken(deps.signingKey, cookie[USER_SESSION_COOKIE].value, deps.now());
      let isAdminAuthenticated = false;
      try {
        const resolution = await resolveLimitedAdminCredential(deps, request, cookie[ADMIN_SESSION_COOKIE].value, clientIp(deps.config, request, server));
        isAdminAuthenticated = !isLimited(resolution) && resolution.principal !== undefined;
      } catch (error) {
        deps.log.warn("auth", "Admin session store unavailable while reading a session", undefined, error);
      }
      return jsonNoStore({ success: true, isAuthenticated: user !== undefined, isAdminAuthenticated, email: user?.email ?? null });
    }, { detail: { tags: ["site"], summary: "The visitor's session", description: "`{success, isAuthenticated, isAdminAuthenticated, email}` from the session cookie." } })
    .delete("/api/auth/session", ({ cookie }) => {
      cookie[USER_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
      return jsonNoStore({ success: true });
    }, { detail: { tags: ["site"], summary: "Sign out", description: "Clears the session cookie; `{success: true}`." } });
}
