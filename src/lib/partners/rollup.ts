// The partner statistics rollups (see docs/placements.md, "Partner statistics"): kept equal to the
// raw engagement records by triggers (defined by the migration `drizzle/*_partner-stats-rollup.sql`);
// this module recomputes them from the raw records when that is ever in doubt (a restore of the
// raw tables or of the orders without their rollups, rows changed with the triggers disabled).

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** What one rebuild did. */
export interface PartnerRebuildOutcome {
  seconds: number;
  activations: number;
}

/**
 * Rebuilds every activation's rollup in one transaction (`partner_stats_rebuild()`). Order changes
 * and tracking inserts wait until it commits (both tables are locked in share mode; the
 * write-behind queues hold their rows meanwhile); about a second per million records in the
 * activations' windows, so the statement timeout is lifted for this transaction only.
 */
export async function rebuildPartnerStats(deps: { db: Db; log: Logger }): Promise<PartnerRebuildOutcome> {
  const started = performance.now();
  const activations = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    const [row] = rowsOf(await tx.execute(sql`select partner_stats_rebuild() as n`));
    return Number(row?.n ?? 0);
  });
  const outcome = { seconds: Math.round((performance.now() - started) / 100) / 10, activations };
  deps.log.info("partner-stats", "Partner statistics rollups rebuilt from the raw records", { ...outcome });
  return outcome;
}
