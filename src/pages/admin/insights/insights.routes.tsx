// /admin/insights: the page and its blocks (each an htmx fragment, or a console page of its own
// without htmx), and the erasure form.

import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { isHtmx } from "../../../lib/http/htmx.ts";
import { formStatusOf, privateFragment } from "../../../lib/http/responses.ts";
import { readForm } from "../../../lib/http/forms.ts";
import { unlessRefused } from "../../../lib/http/errors.ts";
import { comparedEdition, insightsWindowOf, liveEventNames, readInsightsQuery } from "../../../lib/insights/request.ts";
import { listEventInsights, readDiscoveryInsights, readSummaryAndDaily, scopeOf } from "../../../lib/insights/metrics.ts";
import { readEditionComparison } from "../../../lib/insights/comparison.ts";
import { pickerEditions } from "../../../lib/insights/editions.ts";
import { readReportInsights } from "../../../lib/insights/reports.ts";
import { eventTableRows, readEventTableQuery } from "../../../lib/insights/event-table.ts";
import { listCollectedUsers, readUsersSummary } from "../../../lib/insights/exports.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { eraseByEmail } from "../../../lib/insights/erasure.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { ComparisonBlock, DiscoveryBlock, EraseCard, EventsBlock, InsightsPage, ReportsBlock, StatsBlock, UsersBlock, windowTitle } from "./insights.view.tsx";

const fragment = privateFragment;

/** GET /admin/insights, …/stats, …/discovery, …/events, …/reports, …/comparison, …/users; POST /admin/insights/erase */
export function insightsRoutes(deps: Deps) {
  // A block: the fragment for htmx, else the console page showing that block alone.
  const block = (request: Request, render: () => JSX.Element, status = 200) =>
    isHtmx(request) ? fragment(render(), status) : consoleResponse(deps, request, "insights", "Insights", render);
  const scope = async (query: Record<string, unknown>) => {
    const q = unlessRefused(readInsightsQuery(query));
    return { q, scope: await scopeOf(deps.database, insightsWindowOf(q, deps.now(), deps.editions.windows)) };
  };

  return new Elysia({ name: "admin-insights-pages" })
    .use(adminPageGuard(deps))
    .get(
      "/admin/insights",
      ({ request, query }) => {
        const q = unlessRefused(readInsightsQuery(query));
        return consoleResponse(deps, request, "insights", "Insights", () => <InsightsPage query={q} editions={pickerEditions(deps.now(), deps.editions.windows)} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/stats",
      async ({ request, query }) => {
        const { q, scope: s } = await scope(query);
        const [{ summary, daily }, discovery] = await Promise.all([readSummaryAndDaily(deps.database, s), readDiscoveryInsights(deps.database, s, q.cluster)]);
        return block(request, () => <StatsBlock title={windowTitle(q)} summary={summary} daily={daily} discovery={discovery} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/discovery",
      async ({ request, query }) => {
        const { q, scope: s } = await scope(query);
        const discovery = await readDiscoveryInsights(deps.database, s, q.cluster);
        return block(request, () => <DiscoveryBlock discovery={discovery} cluster={q.cluster} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/events",
      async ({ request, query }) => {
        const { q, scope: s } = await scope({ windowDays: query.windowDays, edition: query.edition });
        const table = readEventTableQuery(query);
        const events = await listEventInsights(deps.database, s, await liveEventNames(deps));
        const { rows, matched } = eventTableRows(events, table);
        return block(request, () => <EventsBlock windowDays={q.windowDays} edition={q.edition} query={table} rows={rows} matched={matched} total={events.length} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/reports",
      async ({ request, query }) => {
        const q = unlessRefused(readInsightsQuery({ windowDays: query.windowDays, edition: query.edition }));
        const reports = await readReportInsights(deps.database, insightsWindowOf(q, deps.now(), deps.editions.windows));
        return block(request, () => <ReportsBlock title={windowTitle(q)} reports={reports} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/comparison",
      async ({ request, query }) => {
        const q = unlessRefused(readInsightsQuery({ edition: query.edition }));
        const now = deps.now();
        const { windows } = deps.editions;
        const comparison = await readEditionComparison(deps.database, comparedEdition(q, now, windows), windows, now);
        return block(request, () => <ComparisonBlock comparison={comparison} />);
      },
      { isAdmin: true },
    )
    .get(
      "/admin/insights/users",
      async ({ request }) => {
        const [summary, users] = await Promise.all([readUsersSummary(deps.database, deps.now()), listCollectedUsers(deps.database)]);
        return block(request, () => <UsersBlock summary={summary} users={users} />);
      },
      { isAdmin: true },
    )
    .post(
      "/admin/insights/erase",
      async ({ request, admin }) => {
        const form = await readForm(request);
        const email = typeof form.email === "string" ? form.email.slice(0, 300) : "";
        if (form.confirm !== "1") return block(request, () => <EraseCard email={email} error="Tick the confirmation box to erase." />, 422);
        const result = await eraseByEmail(deps, email, actorOf(admin));
        if (!result.ok) return block(request, () => <EraseCard email={email} error={result.error} />, formStatusOf(result.reason));
        return block(request, () => <EraseCard result={result} />);
      },
      { isAdmin: true, parse: "none" },
    );
}
