// Partner statistics (see docs/placements.md, "Partner statistics"): JSON, or CSV with
// `format=csv`. Never cached; the token sits in the URL, so no Referer may carry it away.

import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, refusalAnswer, statusOf } from "../lib/http/responses.ts";
import { PARTNER_STATS_HEADERS, partnerStatsCsv, readPartnerStats } from "../lib/partners/stats.ts";

/** GET /api/partner-stats/:activationId?token=&format= */
export function partnerStatsApi(deps: Deps) {
  return new Elysia({ name: "partner-stats-api" }).get("/api/partner-stats/:activationId", async ({ params, query }) => {
    const result = await readPartnerStats(deps, params.activationId, query.token);
    if (!result.ok) return refusalAnswer(statusOf(result.reason), result.error, {}, PARTNER_STATS_HEADERS);
    if (query.format === "csv") {
      const filename = `partner-stats-${result.stats.eventKey.replace(/[^A-Za-z0-9_.-]/g, "_")}.csv`;
      return new Response(partnerStatsCsv(result.stats), {
        headers: { ...PARTNER_STATS_HEADERS, "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` },
      });
    }
    return jsonNoStore({ success: true, data: result.stats }, 200, PARTNER_STATS_HEADERS);
  }, {
    // Text schemas (nothing is refused for them; the checks stay in readPartnerStats) so the OpenAPI document lists the parameters.
    params: t.Object({ activationId: t.String({ description: "The activation id from the partner's statistics link" }) }),
    query: t.Object({
      token: t.Optional(t.String({ description: "The statistics token from the same link (400 without it, 403 when wrong)" })),
      format: t.Optional(t.String({ description: "csv for a two-line CSV file; anything else gives JSON" })),
    }),
    detail: { tags: ["site"], summary: "A partner's placement statistics", description: "`{success, data}` for the placement of the link (or CSV); never cached. 404 unknown id, 409 while the placement is not fulfilled." },
  });
}
