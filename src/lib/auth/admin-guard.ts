// The admin guard: one named Elysia plugin with the `isAdmin` macro. A guarded route gets the
// resolved `admin` principal; without a valid credential API paths answer the JSON 401 and pages
// answer the login card (supplied by the pages layer); cookie-only state changes from another
// origin answer 403. Every guarded response carries the no-store headers.

import { Elysia } from "elysia";
import type { Logger } from "../logger.ts";
import { refuse, unlessRefused } from "../http/errors.ts";
import { NO_STORE_HEADERS, statusOf } from "../http/responses.ts";
import { limited, refused } from "../outcome.ts";
import { ADMIN_SESSION_COOKIE } from "./cookies.ts";
import { clientIp } from "../client-ip.ts";
import { SIGN_IN_MESSAGES } from "./sign-in.ts";
import { isSameOriginRequest, isStateChanging, needsOriginCheck, type AdminPrincipal } from "./admin-credentials.ts";
import { isLimited, resolveLimitedAdminCredential, type AdminCredentialLimitDeps } from "./admin-credential-limit.ts";
import { unknownAdminFieldsRefusal } from "./admin-body-fields.ts";

/** The 401 answer of a guarded page: markup and extra headers (e.g. HX-Redirect). */
export interface UnauthorizedPage {
  body: string;
  headers?: Record<string, string>;
}

export interface AdminGuardOptions {
  /** Renders the login card for guarded pages; without it every path gets the JSON 401. */
  unauthorizedPage?: (request: Request, state: { disabled: boolean }) => UnauthorizedPage;
}

function isApiPath(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

/** The guard plugin; routes opt in with `{ isAdmin: true }` and receive `admin`. */
export function adminGuard(deps: AdminCredentialLimitDeps & { log: Logger }, options: AdminGuardOptions = {}) {
  return new Elysia({ name: "admin-guard", seed: options.unauthorizedPage ? "pages" : "api" }).macro({
    isAdmin: {
      async resolve({ request, cookie, set, status, server, route }) {
        Object.assign(set.headers, NO_STORE_HEADERS);
        // Every refusal below is answered by the one error handler (JSON, page or fragment), with
        // its reason's status; only the login card is this guard's own answer.
        let resolution;
        try {
          resolution = await resolveLimitedAdminCredential(deps, request, cookie[ADMIN_SESSION_COOKIE]?.value, clientIp(deps.config, request, server));
        } catch (error) {
          deps.log.error("admin-auth", "Admin session store unavailable", { method: request.method }, error);
          refuse(refused("unavailable", "Service unavailable"));
        }
        if (isLimited(resolution)) refuse(limited(SIGN_IN_MESSAGES.tooMany, resolution.retryAfter));
        const principal = resolution.principal;
        if (!principal) {
          if (options.unauthorizedPage && !isApiPath(request)) {
            const page = options.unauthorizedPage(request, { disabled: resolution.disabled });
            Object.assign(set.headers, { "content-type": "text/html; charset=utf-8", vary: "HX-Request" }, page.headers);
            return status(statusOf("unauthorized"), page.body);
          }
          refuse(refused("unauthorized", "Unauthorized"));
        }
        if (needsOriginCheck(request, principal) && !isSameOriginRequest(deps.config, request)) {
          refuse(refused("forbidden", "Forbidden"));
        }
        // An admin API write naming a field its route does not take is refused before it runs.
        if (isStateChanging(request.method) && isApiPath(request)) unlessRefused(await unknownAdminFieldsRefusal(request, `${request.method} ${route.slice(deps.config.basePath.length)}`));
        return { admin: principal as AdminPrincipal };
      },
    },
  });
}
