// Crafted tracking rows for the insights tests: inserted straight into the tables.

import { sql } from "drizzle-orm";
import type { Database } from "../../src/lib/db/client.ts";

export interface EngagementSeed {
  key: string;
  action?: "click" | "outbound_click" | "calendar_sync";
  session?: string | null;
  at: string;
  email?: string | null;
}

export interface DiscoverySeed {
  action: "search" | "filter_apply" | "filter_clear";
  session?: string | null;
  at: string;
  group?: string | null;
  value?: string | null;
  query?: string | null;
  email?: string | null;
}

/** Inserts engagement rows (click by default, authenticated when an email is given). */
export async function seedEngagement(database: Database, rows: readonly EngagementSeed[]): Promise<void> {
  if (rows.length === 0) return;
  const data = rows.map((r) => ({ event_key: r.key, action_type: r.action ?? "click", session_id: r.session ?? null, user_email: r.email ?? null, is_authenticated: Boolean(r.email), recorded_at: r.at }));
  await database.query(sql`
    insert into engagement_interactions (event_key, action_type, session_id, user_email, is_authenticated, recorded_at)
    select x.event_key, x.action_type, x.session_id, x.user_email, x.is_authenticated, x.recorded_at
    from jsonb_to_recordset(${JSON.stringify(data)}::jsonb) as x(event_key text, action_type text, session_id text, user_email text, is_authenticated boolean, recorded_at timestamptz)`);
}

/** Inserts discovery rows. */
export async function seedDiscovery(database: Database, rows: readonly DiscoverySeed[]): Promise<void> {
  if (rows.length === 0) return;
  const data = rows.map((r) => ({ action_type: r.action, session_id: r.session ?? null, filter_group: r.group ?? null, filter_value: r.value ?? null, search_query: r.query ?? null, user_email: r.email ?? null, is_authenticated: Boolean(r.email), recorded_at: r.at }));
  await database.query(sql`
    insert into discovery_interactions (action_type, session_id, filter_group, filter_value, search_query, user_email, is_authenticated, recorded_at)
    select x.action_type, x.session_id, x.filter_group, x.filter_value, x.search_query, x.user_email, x.is_authenticated, x.recorded_at
    from jsonb_to_recordset(${JSON.stringify(data)}::jsonb) as x(action_type text, session_id text, filter_group text, filter_value text, search_query text, user_email text, is_authenticated boolean, recorded_at timestamptz)`);
}

/** Adds seconds to an ISO instant. */
export function plus(iso: string, seconds: number): string {
  return new Date(new Date(iso).getTime() + seconds * 1000).toISOString();
}
