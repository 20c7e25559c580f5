// The rows the tracking endpoints record and the one-statement batch writers behind the
// write-behind queues. Each statement inserts its batch marker (write_batches) and its rows
// together: a batch id already applied inserts nothing, so retries are idempotent.

import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type Db } from "../db/client.ts";
import { discoveryInteractions, engagementInteractions, genrePreferences, sessionGenrePreferences } from "../db/schema/index.ts";
import type { DiscoveryAction, EngagementAction } from "./validation.ts";

/**
 * The insert row of a table as the batch writers send it: keyed by database column name (the JSON
 * read by `jsonb_to_recordset`), every column present (null when empty), timestamps as ISO 8601
 * strings. Derived from the Drizzle schema, so a new column is a type error here until handled.
 */
export type JsonRow<T extends PgTable, Skip extends keyof T["$inferInsert"] = never> = {
  [K in Exclude<keyof T["$inferInsert"], Skip> & keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]-?: JsonValue<Exclude<T["$inferInsert"][K], undefined>>;
};
type JsonValue<V> = V extends Date ? string : V;

/** One engagement_interactions row (see docs/tracking.md, "Tables"); recorded_at is the moment the request was accepted. */
export type EngagementRow = Omit<JsonRow<typeof engagementInteractions, "id">, "action_type"> & { action_type: EngagementAction };

/** One discovery_interactions row (see docs/tracking.md, "Tables"). */
export type DiscoveryRow = Omit<JsonRow<typeof discoveryInteractions, "id">, "action_type"> & { action_type: DiscoveryAction };

/** One genre_preferences row of an upsert batch. */
type PreferenceRow = JsonRow<typeof genrePreferences>;
type SessionPreferenceRow = JsonRow<typeof sessionGenrePreferences>;

/**
 * The pieces of `insert into <table> (<columns>) select x.<columns> from jsonb_to_recordset(...) as
 * x(<column type>, ...)`, every column of the table but `skip`, in schema order, named and typed
 * as the schema says.
 */
function recordset(table: PgTable, skip: readonly string[] = []): { columns: SQL; selected: SQL; definition: SQL } {
  const columns = Object.values(getTableColumns(table)).filter((c) => !skip.includes(c.name));
  return {
    columns: sql.raw(columns.map((c) => c.name).join(", ")),
    selected: sql.raw(columns.map((c) => `x.${c.name}`).join(", ")),
    definition: sql.raw(columns.map((c) => `${c.name} ${c.getSQLType()}`).join(", ")),
  };
}

const ENGAGEMENT = recordset(engagementInteractions, ["id"]);
const DISCOVERY = recordset(discoveryInteractions, ["id"]);
const PREFERENCES = recordset(genrePreferences);
const SESSION_PREFERENCES = recordset(sessionGenrePreferences);

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
    insert into engagement_interactions (${ENGAGEMENT.columns})
    select ${ENGAGEMENT.selected}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${ENGAGEMENT.definition})
    where exists (select 1 from marker)`);
}

/** Writes a batch of discovery rows once per batch id. */
export async function insertDiscoveryBatch(db: Db, rows: readonly DiscoveryRow[], batchId: string): Promise<void> {
  await db.execute(sql`
    with marker as (insert into write_batches (id) values (${batchId}::uuid) on conflict do nothing returning id)
    insert into discovery_interactions (${DISCOVERY.columns})
    select ${DISCOVERY.selected}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${DISCOVERY.definition})
    where exists (select 1 from marker)`);
}

/** Sums increments of the same key (one statement may not update a row twice), in key order. */
function mergeIncrements(increments: readonly PreferenceIncrement[], keyOf: (inc: PreferenceIncrement) => string | undefined): Map<string, PreferenceIncrement & { first: string }> {
  const merged = new Map<string, PreferenceIncrement & { first: string }>();
  for (const inc of increments) {
    const key = keyOf(inc);
    if (key === undefined) continue;
    const row = merged.get(key);
    if (!row) merged.set(key, { ...inc, first: inc.at });
    else {
      row.score += inc.score;
      if (inc.at < row.first) row.first = inc.at;
      if (inc.at > row.at) row.at = inc.at;
    }
  }
  return new Map([...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Applies a batch of genre preference increments once per batch id, to the per-email scores and
 * to the per-session scores (increments sent with a session id) in one statement: increments of
 * the same key are summed first, then each key is one atomic upsert `score = score + increment`,
 * in key order so concurrent batches rarely wait on each other (a deadlock is a transient error
 * and the batch is retried).
 */
export async function upsertPreferenceBatch(db: Db, increments: readonly PreferenceIncrement[], batchId: string): Promise<void> {
  const rows: PreferenceRow[] = [...mergeIncrements(increments, (inc) => `${inc.email}\u0001${inc.genre}`).values()].map((m) => ({ email: m.email, genre: m.genre, score: m.score, first_seen_at: m.first, last_seen_at: m.at }));
  const sessionRows: SessionPreferenceRow[] = [...mergeIncrements(increments, (inc) => (inc.sid === null ? undefined : `${inc.sid}\u0001${inc.genre}`)).values()].map((m) => ({
    session_id: m.sid!,
    genre: m.genre,
    email: m.email,
    score: m.score,
    first_seen_at: m.first,
    last_seen_at: m.at,
  }));
  await db.execute(sql`
    with marker as (insert into write_batches (id) values (${batchId}::uuid) on conflict do nothing returning id),
    per_session as (
      insert into session_genre_preferences (${SESSION_PREFERENCES.columns})
      select ${SESSION_PREFERENCES.selected}
      from jsonb_to_recordset(${JSON.stringify(sessionRows)}::jsonb) as x(${SESSION_PREFERENCES.definition})
      where exists (select 1 from marker)
      on conflict (session_id, genre) do update set
        score = session_genre_preferences.score + excluded.score,
        last_seen_at = greatest(session_genre_preferences.last_seen_at, excluded.last_seen_at)
      returning 1
    )
    insert into genre_preferences (${PREFERENCES.columns})
    select ${PREFERENCES.selected}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${PREFERENCES.definition})
    where exists (select 1 from marker)
    on conflict (email, genre) do update set
      score = genre_preferences.score + excluded.score,
      last_seen_at = greatest(genre_preferences.last_seen_at, excluded.last_seen_at)`);
}

/** Deletes batch markers older than `maxAgeSeconds` (a retry never comes that late); returns how many. */
export async function pruneBatchMarkers(db: Db, maxAgeSeconds = 3600): Promise<number> {
  const result = await db.execute(sql`delete from write_batches where applied_at < now() - make_interval(secs => ${maxAgeSeconds}) returning id`);
  return rowsOf(result).length;
}
