// Console entry pages: login and logout, the overview, and the areas still to come.

import { siteHref } from "../../lib/links.ts";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { NO_STORE_HEADERS, markup, privateFragment, refusalHeaders, statusOf } from "../../lib/http/responses.ts";
import { hxRedirect, pageOrFragment } from "../../lib/http/htmx.ts";
import { readForm } from "../../lib/http/forms.ts";
import { clientIp } from "../../lib/client-ip.ts";
import { loginAdmin, logoutAdmin, type AdminLoginOutcome } from "../../lib/auth/admin-login.ts";
import { isSameOriginRequest, needsOriginCheck, resolveAdminCredential } from "../../lib/auth/admin-credentials.ts";
import { resolveLimitedAdminCredential } from "../../lib/auth/admin-credential-limit.ts";
import { ADMIN_SESSION_COOKIE, clearedSessionCookie, sessionCookie, type SessionCookieOptions } from "../../lib/auth/cookies.ts";
import { HttpError } from "../../lib/http/errors.ts";
import { countActionItems, readOverview } from "../../lib/admin/status.ts";
import { adminPageGuard } from "./guard.ts";
import { LoginCard, LoginPage, type LoginCardProps } from "./login.view.tsx";
import { safeAdminPath, type AdminAreaKey } from "./shell.view.tsx";
import { consoleResponse } from "./console.ts";
import { Overview } from "./overview.view.tsx";
import { ACTION_CENTER_OVERVIEW_PATH, ACTION_CENTER_PATH, ActionCenterBadge, ActionCenterPanel } from "./action-center.view.tsx";

const LOGIN_ERRORS = {
  empty: "Enter the admin key.",
  rejected: "That key is not valid.",
  limited: "Too many attempts. Please try again shortly.",
};

/** The login card alone for htmx, the login page otherwise. */
function loginResponse(request: Request, props: LoginCardProps, status: number, headers: Record<string, string> = {}): Response {
  return pageOrFragment(request, { page: () => markup(LoginPage(props)), fragment: () => markup(LoginCard(props)) }, { status, headers: { ...NO_STORE_HEADERS, ...headers } });
}

/** The answer of a login form post; on success the session cookie is set through `setCookie`. */
function loginFormAnswer(deps: Pick<Deps, "config">, request: Request, next: string, outcome: AdminLoginOutcome, setCookie: (options: SessionCookieOptions) => void): Response {
  if (!outcome.ok) return loginResponse(request, { disabled: false, next, error: outcome.reason === "limited" ? LOGIN_ERRORS.limited : LOGIN_ERRORS.rejected }, statusOf(outcome.reason), refusalHeaders(outcome));
  setCookie(sessionCookie(deps.config, outcome.token, outcome.maxAge));
  return hxRedirect(request, next, NO_STORE_HEADERS);
}

/**
 * GET/POST /admin/login, POST /admin/logout, GET /admin (the areas: content/, placements/,
 * insights/, operations/), and the Action Center fragments the badge and the overview poll:
 * GET /admin/action-center, GET /admin/action-center/overview (never cached, unpublished changes counted).
 */
export function adminRoutes(deps: Deps) {
  const consolePage = (request: Request, area: AdminAreaKey, title: string, content: () => JSX.Element) => consoleResponse(deps, request, area, title, content);

  return new Elysia({ name: "admin-pages" })
    .use(adminPageGuard(deps))
    .get("/admin/login", async ({ request, query, cookie, server }) => {
      const next = safeAdminPath(query.next);
      const resolution = await resolveLimitedAdminCredential(deps, request, cookie[ADMIN_SESSION_COOKIE].value, clientIp(deps.config, request, server)).catch(() => ({ disabled: false, principal: undefined }));
      if ("principal" in resolution && resolution.principal) return hxRedirect(request, next, NO_STORE_HEADERS);
      return loginResponse(request, { disabled: resolution.disabled, next }, 200);
    })
    .post(
      "/admin/login",
      async ({ request, cookie, server }) => {
        const form = await readForm(request);
        const next = safeAdminPath(form.next);
        if (!deps.config.adminKey) return loginResponse(request, { disabled: true, next }, 401);
        if (!form.key?.trim()) return loginResponse(request, { disabled: false, next, error: LOGIN_ERRORS.empty }, 422);
        const outcome = await loginAdmin(deps, { key: form.key, ip: clientIp(deps.config, request, server), ua: request.headers.get("user-agent") ?? "" });
        return loginFormAnswer(deps, request, next, outcome, (options) => cookie[ADMIN_SESSION_COOKIE].set(options));
      },
      { parse: "none" },
    )
    .post(
      "/admin/logout",
      // Lenient on purpose: an expired or revoked cookie still gets cleared and the browser lands
      // on the login page. A valid cookie session is revoked (after the same-origin check).
      async ({ request, cookie }) => {
        const resolution = await resolveAdminCredential(deps, request, cookie[ADMIN_SESSION_COOKIE].value).catch(() => ({ disabled: false, principal: undefined }));
        const principal = resolution.principal;
        if (principal && needsOriginCheck(request, principal) && !isSameOriginRequest(deps.config, request)) throw new HttpError(403, "Forbidden");
        await logoutAdmin(deps, principal);
        cookie[ADMIN_SESSION_COOKIE].set(clearedSessionCookie(deps.config));
        return hxRedirect(request, siteHref("/admin/login"), NO_STORE_HEADERS);
      },
      { parse: "none" },
    )
    .get(
      "/admin",
      async ({ request }) => {
        const facts = await readOverview(deps);
        return consolePage(request, "overview", "Overview", () => <Overview facts={facts} />);
      },
      { isAdmin: true },
    )
    .get(ACTION_CENTER_PATH, async () => privateFragment(<ActionCenterBadge counts={await countActionItems(deps, { drafts: true })} fragment />), { isAdmin: true })
    .get(ACTION_CENTER_OVERVIEW_PATH, async () => privateFragment(<ActionCenterPanel counts={await countActionItems(deps, { drafts: true })} fragment />), { isAdmin: true });
}

