// The rows the tracking endpoints record and the one-statement batch writers behind the
// write-behind queues. Each statement inserts its batch marker (write_batches) and its rows
// together: a batch id already applied inserts nothing, so retries are idempotent.

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { DiscoveryAction, EngagementAction } from "./validation.ts";

/** One engagement_interactions row (see docs/tracking.md, "Tables"). */
export interface EngagementRow {
  event_key: string;
  action_type: EngagementAction;
  session_id: string | null;
  source: string | null;
  path: string | null;
  is_authenticated: boolean;
  user_email: string | null;
  /** ISO 8601: the moment the request was accepted, not the moment it was written. */
  recorded_at: string;
}

/** One discovery_interactions row (see docs/tracking.md, "Tables"). */
export interface DiscoveryRow {
  action_type: DiscoveryAction;
  session_id: string | null;
  user_email: string | null;
  filter_group: string | null;
  filter_value: string | null;
  search_query: string | null;
  path: string | null;
  is_authenticated: boolean;
  recorded_at: string;
}

/** One genre preference increment. */
export interface PreferenceIncrement {
  email: string;
  /** The browser session (user token sid) that sent it; null for tokens without one. */
  sid: string | null;
  genre: string;
  score: number;
  at: string;
}

/** Writes a batch of engagement rows once per batch id. */
export async function insertEngagementBatch(db: Db, rows: readonly EngagementRow[], batchId: string): Promise<void> {
  await db.execute(sql`
    with marker as (insert into write_batches (id) values (${batchId}::uuid) on conflict do nothing returning id)
    insert into engagement_interactions (event_key, action_type, session_id, source, path, is_authenticated, user_email, recorded_at)
    select x.event_key, x.action_type, x.session_id, x.source, x.path, x.is_authenticated, x.user_email, x.recorded_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(event_key text, action_type text, session_id text, source text, path text, is_authenticated boolean, user_email text, recorded_at timestamptz)
    where exists (select 1 from marker)`);
}

/** Writes a batch of discovery rows once per batch id. */
export async function insertDiscoveryBatch(db: Db, rows: readonly DiscoveryRow[], batchId: string): Promise<void> {
  await db.execute(sql`
    with marker as (insert into write_batches (id) values (${batchId}::uuid) on conflict do nothing returning id)
    insert into discovery_interactions (action_type, session_id, user_email, filter_group, filter_value, search_query, path, is_authenticated, recorded_at)
    select x.action_type, x.session_id, x.user_email, x.filter_group, x.filter_value, x.search_query, x.path, x.is_authenticated, x.recorded_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(action_type text, session_id text, user_email text, filter_group text, filter_value text, search_query text, path text, is_authenticated boolean, recorded_at timestamptz)
    where exists (select 1 from marker)`);
}

type Merged = { email: string; genre: string; score: number; first_seen_at: string; last_seen_at: string };

/** Sums increments of the same key (one statement may not update a row twice), in key order. */
function mergeIncrements(increments: readonly PreferenceIncrement[], keyOf: (inc: PreferenceIncrement) => string | undefined): (Merged & { key: string })[] {
  const merged = new Map<string, Merged & { key: string }>();
  for (const inc of increments) {
    const key = keyOf(inc);
    if (key === undefined) continue;
    const row = merged.get(key);
    if (!row) merged.set(key, { key, email: inc.email, genre: inc.genre, score: inc.score, first_seen_at: inc.at, last_seen_at: inc.at });
    else {
      row.score += inc.score;
      if (inc.at < row.first_seen_at) row.first_seen_at = inc.at;
      if (inc.at > row.last_seen_at) row.last_seen_at = inc.at;
    }
  }
  return [...merged.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Applies a batch of genre preference increments once per batch id, to the per-email scores and
 * to the per-session scores (increments sent with a session id) in one statement: increments of
 * the same key are summed first, then each key is one atomic upsert `score = score + increment`,
 * in key order so concurrent batches rarely wait on each other (a deadlock is a transient error
 * and the batch is retried).
 */
export async function upsertPreferenceBatch(db: Db, increments: readonly PreferenceIncrement[], batchId: string): Promise<void> {
  const byEmail = mergeIncrements(increments, (inc) => `${inc.email}\u0001${inc.genre}`).map(({ key: _key, ...row }) => row);
  const bySession = mergeIncrements(increments, (inc) => (inc.sid === null ? undefined : `${inc.sid}\u0001${inc.genre}`)).map(({ key, ...row }) => ({ ...row, session_id: key.slice(0, key.indexOf("\u0001")) }));
  await db.execute(sql`
    with marker as (insert into write_batches (id) values (${batchId}::uuid) on conflict do nothing returning id),
    per_session as (
      insert into session_genre_preferences (session_id, genre, email, score, first_seen_at, last_seen_at)
      select x.session_id, x.genre, x.email, x.score, x.first_seen_at, x.last_seen_at
      from jsonb_to_recordset(${JSON.stringify(bySession)}::jsonb) as x(session_id text, genre text, email text, score int, first_seen_at timestamptz, last_seen_at timestamptz)
      where exists (select 1 from marker)
      on conflict (session_id, genre) do update set
        score = session_genre_preferences.score + excluded.score,
        last_seen_at = greatest(session_genre_preferences.last_seen_at, excluded.last_seen_at)
      returning 1
    )
    insert into genre_preferences (email, genre, score, first_seen_at, last_seen_at)
    select x.email, x.genre, x.score, x.first_seen_at, x.last_seen_at
    from jsonb_to_recordset(${JSON.stringify(byEmail)}::jsonb) as x(email text, genre text, score int, first_seen_at timestamptz, last_seen_at timestamptz)
    where exists (select 1 from marker)
    on conflict (email, genre) do update set
      score = genre_preferences.score + excluded.score,
      last_seen_at = greatest(genre_preferences.last_seen_at, excluded.last_seen_at)`);
}

/** Deletes batch markers older than `maxAgeSeconds` (a retry never comes that late); returns how many. */
export async function pruneBatchMarkers(db: Db, maxAgeSeconds = 3600): Promise<number> {
  const result = await db.execute(sql`delete from write_batches where applied_at < now() - make_interval(secs => ${maxAgeSeconds}) returning id`);
  return Array.isArray(result) ? result.length : ((result as { rows?: unknown[] }).rows?.length ?? 0);
}
