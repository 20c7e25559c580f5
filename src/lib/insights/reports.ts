// Visitors' reports in the insights window (see docs/insights.md, "Reports from visitors"): one
// query over event_reports for [start, end), whatever became of each report. Spam-flagged reports
// are counted apart and left out of the other figures.

import { sql } from "drizzle-orm";
import { REPORT_KINDS, type ReportKind } from "../reports/report.ts";
import type { MetricsDb } from "./metrics-types.ts";
import type { InsightsWindow } from "./window.ts";

export interface ReportInsights {
  /** Reports received in the window (not spam-flagged). */
  total: number;
  perKind: Record<ReportKind, number>;
  /** Distinct events those reports are about. */
  eventsWithReports: number;
  /** Of those, still open now. */
  openCount: number;
  /** Spam-flagged reports received in the window (not in the figures above). */
  spamCount: number;
}

const n = (value: unknown) => Number(value ?? 0);

export async function readReportInsights(db: MetricsDb, window: InsightsWindow): Promise<ReportInsights> {
  const perKind = sql.join(
    REPORT_KINDS.map((kind) => sql`count(*) filter (where not spam and kind = ${kind}) as ${sql.identifier(`n_${kind}`)}`),
    sql`, `,
  );
  const [row] = await db.query<Record<string, unknown>>(sql`
    select count(*) filter (where not spam) as total, ${perKind},
      count(distinct event_key) filter (where not spam) as events,
      count(*) filter (where not spam and status = 'open') as open,
      count(*) filter (where spam) as spam
    from event_reports
    where created_at >= ${window.start.toISOString()}::timestamptz and created_at < ${window.end.toISOString()}::timestamptz`);
  return {
    total: n(row?.total),
    perKind: Object.fromEntries(REPORT_KINDS.map((kind) => [kind, n(row?.[`n_${kind}`])])) as Record<ReportKind, number>,
    eventsWithReports: n(row?.events),
    openCount: n(row?.open),
    spamCount: n(row?.spam),
  };
}
