// Admin login and logout API (see docs/auth-and-admin.md, "Admin login and sessions"). Login takes
// the key as JSON `{key}` or a form field and answers the token (usable as Bearer) plus the
// finder_admin_session cookie.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { readJsonOrForm } from "../lib/http/forms.ts";
import { clientIp } from "../lib/client-ip.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { ADMIN_BODY_FIELDS, unknownFieldsRefusal, unknownFields } from "../lib/auth/admin-body-fields.ts";
import { loginAdmin, logoutAdmin, type AdminLoginOutcome } from "../lib/auth/admin-login.ts";
import { ADMIN_SESSION_COOKIE, clearedSessionCookie, sessionCookie, type SessionCookieOptions } from "../lib/auth/cookies.ts";

/** The JSON answer of a login; on success the session cookie is set through `setCookie`. */
function loginAnswer(deps: Pick<Deps, "config">, outcome: AdminLoginOutcome, setCookie: (options: SessionCookieOptions) => void): Response {
  if (!outcome.ok) return refusalJson(outcome);
  setCookie(sessionCookie(deps.config, outcome.token, outcome.maxAge));
  return jsonNoStore({ success: true, token: outcome.token, expiresAt: outcome.expiresAt, jti: outcome.jti });
}

/** POST /api/admin/login, POST /api/admin/logout */
export function adminAuthApi(deps: Deps) {
  return new Elysia({ name: "admin-auth-api" })
    .use(adminGuard(deps))
    .post(
      "/api/admin/login",
      async ({ request, cookie, server }) => {
        const body = await readJsonOrForm(request);
        const unknown = unknownFieldsRefusal(unknownFields(body, ADMIN_BODY_FIELDS["POST /api/admin/login"]!));
        if (unknown) return refusalJson(unknown);
        const outcome = await loginAdmin(deps, { key: body?.key, ip: clientIp(deps.config, request, server), ua: request.headers.get("user-agent") ?? "" });
        return loginAnswer(deps, outcome, (options) => cookie[ADMIN_SESSION_COOKIE].set(options));
      },
      { parse: "none" },
    )
    .post(
      "/api/admin/logout",
      async ({ admin, cookie }) => {
        await logoutAdmin(deps, admin);
        cookie[ADMIN_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
        return jsonNoStore({ success: true });
      },
      { isAdmin: true, parse: "none" },
    );
}
