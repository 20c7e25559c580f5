// Admin status API (see docs/auth-and-admin.md, "Existing admin endpoints"): health, event store
// status, KV inspection.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalJson } from "../lib/http/responses.ts";
import { refused } from "../lib/outcome.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { readAdminHealth, readDataStoreStatus } from "../lib/admin/status.ts";
import { inspectKv, parseKvQuery } from "../lib/admin/kv-inspect.ts";

/** GET /api/admin/health, GET /api/admin/data-store/status, GET /api/admin/postgres/kv */
export function adminStatusApi(deps: Deps) {
  const fail = (error: unknown, message: string) => {
    deps.log.error("admin-status", message, undefined, error);
    return refusalJson(refused("failed", message));
  };
  return new Elysia({ name: "admin-status-api" })
    .use(adminGuard(deps))
    .get("/api/admin/health", async () => jsonNoStore(await readAdminHealth(deps)), { isAdmin: true })
    .get(
      "/api/admin/data-store/status",
      async () => {
        try {
          return jsonNoStore(await readDataStoreStatus(deps));
        } catch (error) {
          return fail(error, "Failed to read data store status");
        }
      },
      { isAdmin: true },
    )
    .get(
      "/api/admin/postgres/kv",
      async ({ query }) => {
        const parsed = parseKvQuery(query);
        if (!parsed.ok) return refusalJson(parsed);
        try {
          return jsonNoStore(await inspectKv(deps.db, parsed.query));
        } catch (error) {
          return fail(error, "Failed to read the KV store");
        }
      },
      { isAdmin: true },
    );
}
