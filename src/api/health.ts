// Public liveness probe: answers without touching the database or exposing any detail.

import { Elysia } from "elysia";
import { NO_STORE_HEADERS } from "../lib/http/responses.ts";

/** GET /api/health → {status:"ok"}. */
export function healthApi() {
  return new Elysia({ name: "health-api" }).get(
    "/api/health",
    ({ set }) => {
      Object.assign(set.headers, NO_STORE_HEADERS);
      return { status: "ok" };
    },
    { detail: { tags: ["site"], summary: "Liveness probe", description: "`{status: \"ok\"}` while the process answers; reads nothing else." } },
  );
}
