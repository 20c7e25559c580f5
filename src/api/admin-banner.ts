// Admin API of the sliding banner (see docs/console-operations.md, "Sliding banner"): read and
// save; a save drops the cached pages that show the banner.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore } from "../lib/http/responses.ts";
import { ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { findBannerSettings, saveBannerSettings } from "../lib/site/banner.ts";
import { readObjectBody } from "../lib/http/responses.ts";

/** Type checks of a banner body; the value rules (trimming, clamping) are the banner's own. */
export function bannerBodyIssues(body: Record<string, unknown>): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if ("enabled" in body && typeof body.enabled !== "boolean") issues.push({ field: "enabled", message: "enabled must be true or false" });
  if ("messages" in body && !Array.isArray(body.messages)) issues.push({ field: "messages", message: "messages must be a list of texts" });
  if ("messageDurationMs" in body && (typeof body.messageDurationMs !== "number" || !Number.isFinite(body.messageDurationMs))) {
    issues.push({ field: "messageDurationMs", message: "messageDurationMs must be a number of milliseconds" });
  }
  if ("desktopMessageCount" in body && body.desktopMessageCount !== 1 && body.desktopMessageCount !== 2) {
    issues.push({ field: "desktopMessageCount", message: "desktopMessageCount must be 1 or 2" });
  }
  return issues;
}

/** GET /api/admin/banner, PUT /api/admin/banner */
export function adminBannerApi(deps: Deps) {
  return new Elysia({ name: "admin-banner-api" })
    .use(adminGuard(deps))
    .get("/api/admin/banner", async () => jsonNoStore({ success: true, banner: await findBannerSettings(deps) }), { isAdmin: true })
    .put(
      "/api/admin/banner",
      async ({ request, admin }) => {
        const body = await readObjectBody(request);
        const issues = bannerBodyIssues(body);
        if (issues.length > 0) throw new ValidationError("Invalid request body", issues);
        const saved = await saveBannerSettings(deps, body, actorOf(admin));
        if (!saved.ok) throw new ValidationError(saved.error, [{ field: "messages", message: saved.error }]);
        return jsonNoStore({ success: true, banner: saved.settings });
      },
      { isAdmin: true, parse: "none" },
    );
}
