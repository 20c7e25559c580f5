// /partner-stats/<id>?token=: the partner's report page, rendered per request and never cached.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { html, statusOf } from "../../lib/http/responses.ts";
import { PARTNER_STATS_HEADERS, readDailySeries, readPartnerStats } from "../../lib/partners/stats.ts";
import { PARTNER_STATS_ERRORS } from "../../lib/partners/stats.ts";
import { placementMoments } from "../../lib/placements/moments.ts";
import { PartnerStatsError, PartnerStatsPage } from "./partner-stats.view.tsx";

/** GET /partner-stats/:activationId */
export function partnerStatsRoutes(deps: Deps) {
  return new Elysia({ name: "partner-stats-pages" }).get("/partner-stats/:activationId", async ({ params, query }) => {
    const result = await readPartnerStats(deps, params.activationId, query.token);
    if (!result.ok) return html(<PartnerStatsError message={result.error} tokenMissing={result.error === PARTNER_STATS_ERRORS.tokenRequired} />, statusOf(result.reason), PARTNER_STATS_HEADERS);
    const [days, moments] = await Promise.all([readDailySeries(deps.db, result.stats).catch(() => []), placementMoments(deps, result.stats.activationId).catch(() => [])]);
    const csvHref = `/api/partner-stats/${encodeURIComponent(result.stats.activationId)}?${new URLSearchParams({ token: String(query.token), format: "csv" }).toString()}`;
    return html(<PartnerStatsPage stats={result.stats} days={days} csvHref={csvHref} moments={moments} />, 200, PARTNER_STATS_HEADERS);
  });
}
