// Admin insights API (see docs/insights.md, "Admin JSON API"): the dashboard figures, the audience
// and users exports as streamed CSV, the collected users, and erasing a person's data by email.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { NO_STORE_HEADERS, jsonNoStore, readJson, refusalJson } from "../lib/http/responses.ts";
import { unlessRefused, ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { comparedEdition, insightsWindowOf, liveEventNames, readInsightsQuery } from "../lib/insights/request.ts";
import { readInsights } from "../lib/insights/metrics.ts";
import { readEditionComparison } from "../lib/insights/comparison.ts";
import { editionSpan } from "../lib/insights/editions.ts";
import { editionOf } from "../lib/events/editions.ts";
import { readReportInsights } from "../lib/insights/reports.ts";
import { AUDIENCE_COLUMNS, USER_COLUMNS, audienceCells, audienceFilename, listAudience, listCollectedUsers, pagesOfUsers, parseAudienceFilters, readUsersSummary, userCells, usersFilename } from "../lib/insights/exports.ts";
import { csvStream } from "../lib/insights/csv.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { eraseByEmail } from "../lib/insights/erasure.ts";

const csvResponse = (filename: string, body: ReadableStream<Uint8Array>) =>
  new Response(body, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${filename}"`, ...NO_STORE_HEADERS } });

/** GET /api/admin/insights, …/insights/audience.csv, /api/admin/users, /api/admin/users.csv; POST /api/admin/users/erase */
export function adminInsightsApi(deps: Deps) {
  return new Elysia({ name: "admin-insights-api" })
    .use(adminGuard(deps))
    .get(
      "/api/admin/insights",
      async ({ query }) => {
        const q = unlessRefused(readInsightsQuery(query));
        const now = deps.now();
        const { windows } = deps.editions;
        const window = insightsWindowOf(q, now, windows);
        const [report, reports, comparison] = await Promise.all([
          readInsights(deps.database, window, q.cluster, await liveEventNames(deps)),
          readReportInsights(deps.database, window),
          readEditionComparison(deps.database, comparedEdition(q, now, windows), windows, now),
        ]);
        const edition = q.edition !== undefined ? editionSpan(editionOf(q.edition, windows)) : null;
        return jsonNoStore({ success: true, ...report, edition, reports, comparison });
      },
      { isAdmin: true },
    )
    .get(
      "/api/admin/insights/audience.csv",
      async ({ query }) => {
        const { windowDays } = unlessRefused(readInsightsQuery({ windowDays: query.windowDays }));
        const { filters, issues } = parseAudienceFilters(query, windowDays);
        if (!filters) throw new ValidationError("Invalid audience filters", issues);
        const now = deps.now();
        const rows = await listAudience(deps.database, filters, now);
        return csvResponse(audienceFilename(now), csvStream(AUDIENCE_COLUMNS, inPages(rows.map(audienceCells))));
      },
      { isAdmin: true },
    )
    .get(
      "/api/admin/users",
      async () => {
        const [summary, users] = await Promise.all([readUsersSummary(deps.database, deps.now()), listCollectedUsers(deps.database)]);
        return jsonNoStore({ success: true, summary, users });
      },
      { isAdmin: true },
    )
    .get(
      "/api/admin/users.csv",
      () => csvResponse(usersFilename(deps.now()), csvStream(USER_COLUMNS, mapPages(pagesOfUsers(deps.database), userCells))),
      { isAdmin: true },
    )
    .post(
      "/api/admin/users/erase",
      async ({ request, admin }) => {
        const body = await readJson(request);
        const email = typeof body === "object" && body !== null ? (body as Record<string, unknown>).email : undefined;
        const result = await eraseByEmail(deps, email, actorOf(admin));
        if (!result.ok) return refusalJson(result);
        const { ok: _ok, ...erased } = result;
        return jsonNoStore({ success: true, erased });
      },
      { isAdmin: true, parse: "none" },
    );
}

async function* inPages<T>(rows: T[], size = 1000): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function* mapPages<T, U>(pages: AsyncIterable<T[]>, map: (row: T) => U): AsyncGenerator<U[]> {
  for await (const page of pages) yield page.map(map);
}
