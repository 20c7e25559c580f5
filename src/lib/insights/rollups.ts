// The insights rollups (see docs/insights.md, "Rollups"): kept equal to the raw tracking rows by
// statement triggers on every insert; this module recomputes them from the raw rows when that is
// ever in doubt (a restore of the raw tables, rows changed by hand). Days already archived by the
// retention task keep their rollups, since their raw rows are gone.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** What one rebuild did. */
export interface RebuildOutcome {
  seconds: number;
  dailyEngagementRows: number;
  sessions: number;
}

/**
 * Rebuilds every rollup in one transaction (`insights_rebuild_rollups()`, defined by the
 * migration). Tracking inserts wait until it commits (the raw tables are locked in share mode) and
 * the write-behind queues hold their rows meanwhile; about a minute per few million rows, so the
 * statement timeout is lifted for this transaction only.
 */
export async function rebuildRollups(deps: { db: Db; log: Logger }): Promise<RebuildOutcome> {
  const started = performance.now();
  const counts = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`select insights_rebuild_rollups()`);
    const result = await tx.execute(sql`select (select count(*) from insights_daily_engagement) as daily, (select count(*) from insights_engagement_sessions) as sessions`);
    const [row] = rowsOf<{ daily: unknown; sessions: unknown }>(result);
    return { dailyEngagementRows: Number(row?.daily ?? 0), sessions: Number(row?.sessions ?? 0) };
  });
  const outcome = { seconds: Math.round((performance.now() - started) / 100) / 10, ...counts };
  deps.log.info("insights", "Insights rollups rebuilt from the raw rows", { ...outcome });
  return outcome;
}
