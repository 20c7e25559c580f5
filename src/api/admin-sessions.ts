// Admin sessions API (see docs/auth-and-admin.md, "Admin login and sessions"): list active
// sessions, revoke one, revoke all by raising the global token version.

import { actorOf } from "../lib/auth/admin-actor.ts";
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { listActiveAdminSessions, parseJtiParam, revokeAdminSession, revokeAllAdminSessions } from "../lib/auth/admin-sessions.ts";
import { unixSeconds } from "../lib/auth/jwt-key.ts";

const SESSIONS_PATH = "/api/admin/tokens/sessions";

/** GET /api/admin/tokens/sessions, DELETE /api/admin/tokens/sessions/:jti, POST /api/admin/tokens/revoke */
export function adminSessionsApi(deps: Deps) {
  const fail = (error: unknown, message: string) => {
    deps.log.error("admin-sessions", message, undefined, error);
    return refusalJson(refused("failed", message));
  };
  return new Elysia({ name: "admin-sessions-api" })
    .use(adminGuard(deps))
    .get(
      SESSIONS_PATH,
      async () => {
        const now = deps.now();
        try {
          const { sessions, currentTokenVersion } = await listActiveAdminSessions(deps.db, now);
          return jsonNoStore({ success: true, count: sessions.length, sessions, currentTokenVersion, now: unixSeconds(now) });
        } catch (error) {
          return fail(error, "Failed to list sessions");
        }
      },
      { isAdmin: true },
    )
    .delete(
      `${SESSIONS_PATH}/*`,
      async ({ request, admin }) => {
        // The raw path segment: URL-decoded and trimmed here, so a malformed one is a clean 404.
        const raw = new URL(request.url).pathname.slice(SESSIONS_PATH.length + 1);
        const jti = raw.includes("/") ? undefined : parseJtiParam(raw);
        try {
          if (jti && (await revokeAdminSession(deps.db, jti, deps.now(), actorOf(admin)))) return jsonNoStore({ success: true, jti });
        } catch (error) {
          return fail(error, "Failed to revoke session");
        }
        return refusalJson(refused("not_found", "Session not found or invalid jti"));
      },
      { isAdmin: true, parse: "none" },
    )
    .post(
      "/api/admin/tokens/revoke",
      async () => {
        const now = deps.now();
        try {
          const nextTokenVersion = await revokeAllAdminSessions(deps.db, now);
          deps.log.info("admin-sessions", "All admin sessions revoked", { nextTokenVersion });
          return jsonNoStore({ success: true, nextTokenVersion, timestamp: now.toISOString() });
        } catch (error) {
          return fail(error, "Failed to revoke sessions");
        }
      },
      { isAdmin: true, parse: "none" },
    );
}
