// The admin guard as every console page area uses it: without a valid credential a page answers
// 401 with the login card in place (htmx requests are also sent to /admin/login).

import { siteHref } from "../../lib/links.ts";
import type { Deps } from "../../deps.ts";
import { adminGuard } from "../../lib/auth/admin-guard.ts";
import { isHtmx } from "../../lib/http/htmx.ts";
import { markup } from "../../lib/http/responses.ts";
import { LoginCard, LoginPage } from "./login.view.tsx";
import { safeAdminPath } from "./shell.view.tsx";

/** The guard plugin for console pages; routes opt in with `{ isAdmin: true }`. */
export function adminPageGuard(deps: Deps) {
  return adminGuard(deps, {
    unauthorizedPage: (request, { disabled }) => {
      const next = safeAdminPath(new URL(request.url).pathname);
      if (isHtmx(request)) {
        // An htmx swap would put the card inside whatever it targeted: send the browser to the page.
        return { body: markup(LoginCard({ disabled, next })), headers: { "hx-redirect": `${siteHref("/admin/login")}?next=${encodeURIComponent(next)}` } };
      }
      return { body: markup(LoginPage({ disabled, next })) };
    },
  });
}
