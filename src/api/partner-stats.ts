// Partner statistics (see docs/placements.md, "Partner statistics"): JSON, or CSV with
// `format=csv`. Never cached; the token sits in the URL, so no Referer may carry it away.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore } from "../lib/http.ts";
import { PARTNER_STATS_HEADERS, partnerStatsCsv, readPartnerStats } from "../lib/partners/stats.ts";

/** GET /api/partner-stats/:activationId?token=&format= */
export function partnerStatsApi(deps: Deps) {
  return new Elysia({ name: "partner-stats-api" }).get("/api/partner-stats/:activationId", async ({ params, query }) => {
    const result = await readPartnerStats(deps, params.activationId, query.token);
    if (!result.ok) return jsonNoStore({ success: false, error: result.error }, result.status, PARTNER_STATS_HEADERS);
    if (query.format === "csv") {
      const filename = `partner-stats-${result.stats.eventKey.replace(/[^A-Za-z0-9_.-]/g, "_")}.csv`;
      return new Response(partnerStatsCsv(result.stats), {
        headers: { ...PARTNER_STATS_HEADERS, "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` },
      });
    }
    return jsonNoStore({ success: true, data: result.stats }, 200, PARTNER_STATS_HEADERS);
  });
}
