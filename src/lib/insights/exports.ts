// The two insights exports (see docs/insights.md, "Exports"): the audience CSV (one row per
// session active in the window, with its interaction counts and the email's preferred genres)
// and the collected users (summary tiles, list and CSV).

import { sql } from "drizzle-orm";
import { GENRE_KEYS } from "../sheet/genres.ts";
import { parisDate } from "../paris-time.ts";
import type { MetricsDb } from "./metrics.ts";
import { clampWindowDays, windowEndingAt, type InsightsWindow } from "./window.ts";

/** The most rows an audience export holds. */
export const AUDIENCE_ROW_LIMIT = 10_000;

export const AUDIENCE_COLUMNS = [
  "email",
  "session_id",
  "clicks",
  "outbound_clicks",
  "calendar_syncs",
  "searches",
  "filter_applies",
  "total_interactions",
  "preferred_genres",
  "last_activity_at",
] as const;

export interface AudienceFilters {
  windowDays: number;
  minInteractions: number;
  calendarSyncOnly: boolean;
  outboundClickOnly: boolean;
  topGenres: string[];
}

export interface AudienceRow {
  email: string;
  sessionId: string;
  clicks: number;
  outboundClicks: number;
  calendarSyncs: number;
  searches: number;
  filterApplies: number;
  totalInteractions: number;
  preferredGenres: string[];
  lastActivityAt: string;
}

/** A filter problem: the field and what is wrong (answered as 400). */
export interface FilterIssue {
  field: string;
  message: string;
}

const flag = (raw: unknown): boolean | undefined => (raw === undefined || raw === "" ? false : raw === "1" || raw === "true" ? true : raw === "0" || raw === "false" ? false : undefined);

/**
 * Reads the audience filters from query values: windowDays as the dashboard (clamped), minInteractions
 * an integer ≥ 0 (default 1, capped at 1,000,000), the two flags `1`/`0`, topGenres a comma list of
 * genre keys (an unknown key is an issue).
 */
export function parseAudienceFilters(query: Record<string, unknown>, windowDays: number): { filters?: AudienceFilters; issues: FilterIssue[] } {
  const issues: FilterIssue[] = [];
  let minInteractions = 1;
  const rawMin = query.minInteractions;
  if (rawMin !== undefined && rawMin !== "") {
    const value = typeof rawMin === "string" && /^\s*\d{1,12}\s*$/.test(rawMin) ? Number(rawMin) : NaN;
    if (!Number.isFinite(value)) issues.push({ field: "minInteractions", message: "minInteractions must be a whole number of 0 or more" });
    else minInteractions = Math.min(value, 1_000_000);
  }
  const calendarSyncOnly = flag(query.calendarSyncOnly);
  if (calendarSyncOnly === undefined) issues.push({ field: "calendarSyncOnly", message: "calendarSyncOnly must be 1 or 0" });
  const outboundClickOnly = flag(query.outboundClickOnly);
  if (outboundClickOnly === undefined) issues.push({ field: "outboundClickOnly", message: "outboundClickOnly must be 1 or 0" });
  const topGenres: string[] = [];
  const rawGenres = query.topGenres;
  if (rawGenres !== undefined && rawGenres !== "") {
    const list = (Array.isArray(rawGenres) ? rawGenres.join(",") : String(rawGenres)).split(",").map((g) => g.trim().toLowerCase()).filter(Boolean);
    const unknown = list.filter((g) => !GENRE_KEYS.includes(g));
    if (unknown.length > 0 || list.length > GENRE_KEYS.length) issues.push({ field: "topGenres", message: "topGenres must be a comma list of known genre keys" });
    else topGenres.push(...new Set(list));
  }
  if (issues.length > 0) return { issues };
  return { filters: { windowDays: clampWindowDays(windowDays), minInteractions, calendarSyncOnly: calendarSyncOnly!, outboundClickOnly: outboundClickOnly!, topGenres }, issues };
}

/** The audience rows for the filters, sorted by total interactions then last activity (both descending), at most 10,000. */
export async function listAudience(db: MetricsDb, filters: AudienceFilters, now: Date): Promise<AudienceRow[]> {
  const window: InsightsWindow = windowEndingAt(now, filters.windowDays);
  const start = window.start.toISOString();
  const end = window.end.toISOString();
  const genres = filters.topGenres;
  const rows = await db.query<Record<string, unknown>>(sql`
    with activity as (
      select session_id, max(user_email) as email,
        count(*) filter (where action_type = 'click') as clicks,
        count(*) filter (where action_type = 'outbound_click') as outbound_clicks,
        count(*) filter (where action_type = 'calendar_sync') as calendar_syncs,
        0::bigint as searches, 0::bigint as filter_applies, max(recorded_at) as last_at
      from engagement_interactions
      where session_id is not null and recorded_at >= ${start}::timestamptz and recorded_at < ${end}::timestamptz
      group by session_id
      union all
      select session_id, max(user_email), 0, 0, 0,
        count(*) filter (where action_type = 'search'),
        count(*) filter (where action_type = 'filter_apply'),
        max(recorded_at)
      from discovery_interactions
      where session_id is not null and recorded_at >= ${start}::timestamptz and recorded_at < ${end}::timestamptz
      group by session_id
    ), sessions as (
      select session_id, max(email) as email, sum(clicks) as clicks, sum(outbound_clicks) as outbound_clicks,
        sum(calendar_syncs) as calendar_syncs, sum(searches) as searches, sum(filter_applies) as filter_applies,
        sum(clicks) + sum(outbound_clicks) + sum(calendar_syncs) as total, max(last_at) as last_at
      from activity group by session_id
    ), with_genres as (
      select s.*, coalesce((
        select array_agg(g.genre order by g.score desc, g.genre)
        from (select genre, score from genre_preferences p where p.email = s.email order by score desc, genre limit 3) g
      ), '{}') as genres
      from sessions s
    )
    select w.*, (select u.email from users u where u.email = w.email and u.consent is true) as consented_email
    from with_genres w
    where total >= ${filters.minInteractions}
      and (${!filters.calendarSyncOnly} or calendar_syncs >= 1)
      and (${!filters.outboundClickOnly} or outbound_clicks >= 1)
      and (${genres.length === 0} or genres && ${`{${genres.map((g) => `"${g}"`).join(",")}}`}::text[])
    order by total desc, last_at desc, session_id
    limit ${AUDIENCE_ROW_LIMIT}`);
  return rows.map((row) => ({
    // Only the email of a user who consented leaves in an export.
    email: row.consented_email ? String(row.consented_email) : "",
    sessionId: String(row.session_id),
    clicks: Number(row.clicks),
    outboundClicks: Number(row.outbound_clicks),
    calendarSyncs: Number(row.calendar_syncs),
    searches: Number(row.searches),
    filterApplies: Number(row.filter_applies),
    totalInteractions: Number(row.total),
    preferredGenres: parseTextArray(row.genres),
    lastActivityAt: new Date(row.last_at as string).toISOString(),
  }));
}

// postgres.js returns text[] as an array; PGlite too, but a driver may hand back the literal.
function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string" && value.startsWith("{")) {
    const inner = value.slice(1, -1);
    return inner === "" ? [] : inner.split(",").map((v) => v.replace(/^"|"$/g, ""));
  }
  return [];
}

/** The CSV cells of one audience row, in column order. */
export function audienceCells(row: AudienceRow): (string | number)[] {
  return [row.email, row.sessionId, row.clicks, row.outboundClicks, row.calendarSyncs, row.searches, row.filterApplies, row.totalInteractions, row.preferredGenres.join("; "), row.lastActivityAt];
}

/** `audience-export-YYYY-MM-DD.csv` (Paris date). */
export function audienceFilename(now: Date): string {
  return `audience-export-${parisDate(now)}.csv`;
}

/** `users-YYYY-MM-DD.csv` (Paris date). */
export function usersFilename(now: Date): string {
  return `users-${parisDate(now)}.csv`;
}

export const USER_COLUMNS = ["First Name", "Last Name", "Email", "First Seen", "Last Seen", "Verifications", "Consent", "Source"] as const;

export interface CollectedUser {
  email: string;
  firstName: string | null;
  lastName: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  verificationCount: number;
  consent: boolean | null;
  source: string | null;
}

export interface UsersSummary {
  uniqueUsers: number;
  verifications: number;
  last24Hours: number;
  last7Days: number;
  consented: number;
  noConsent: number;
}

/** The Collected Users tiles: users, verifications, seen in the last 24 h and 7 days, consent yes / not yes. */
export async function readUsersSummary(db: MetricsDb, now: Date): Promise<UsersSummary> {
  const [row] = await db.query<Record<string, unknown>>(sql`
    select count(*) as users, coalesce(sum(verification_count), 0) as verifications,
      count(*) filter (where last_seen_at >= ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz) as day,
      count(*) filter (where last_seen_at >= ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}::timestamptz) as week,
      count(*) filter (where consent is true) as consented
    from users`);
  const uniqueUsers = Number(row?.users ?? 0);
  const consented = Number(row?.consented ?? 0);
  return { uniqueUsers, verifications: Number(row?.verifications ?? 0), last24Hours: Number(row?.day ?? 0), last7Days: Number(row?.week ?? 0), consented, noConsent: uniqueUsers - consented };
}

function userFrom(row: Record<string, unknown>): CollectedUser {
  return {
    email: String(row.email),
    firstName: (row.first_name as string | null) ?? null,
    lastName: (row.last_name as string | null) ?? null,
    firstSeenAt: new Date(row.first_seen_at as string).toISOString(),
    lastSeenAt: new Date(row.last_seen_at as string).toISOString(),
    verificationCount: Number(row.verification_count),
    consent: row.consent === null || row.consent === undefined ? null : Boolean(row.consent),
    source: (row.source as string | null) ?? null,
  };
}

/** Users, most recently seen first, at most `limit`. */
export async function listCollectedUsers(db: MetricsDb, limit = 1000): Promise<CollectedUser[]> {
  const rows = await db.query<Record<string, unknown>>(sql`
    select email, first_name, last_name, first_seen_at, last_seen_at, verification_count, consent, source
    from users order by last_seen_at desc, email limit ${limit}`);
  return rows.map(userFrom);
}

/** Every user who consented, in pages of `pageSize` (by email), for the streamed CSV. */
export async function* pagesOfUsers(db: MetricsDb, pageSize = 1000): AsyncGenerator<CollectedUser[]> {
  let after = "";
  for (;;) {
    const rows = await db.query<Record<string, unknown>>(sql`
      select email, first_name, last_name, first_seen_at, last_seen_at, verification_count, consent, source
      from users where consent is true and email > ${after} order by email limit ${pageSize}`);
    if (rows.length === 0) return;
    const users = rows.map(userFrom);
    yield users;
    after = users[users.length - 1].email;
    if (rows.length < pageSize) return;
  }
}

/** The CSV cells of one user, in column order; consent is yes, no or empty when never asked. */
export function userCells(user: CollectedUser): string[] {
  return [user.firstName ?? "", user.lastName ?? "", user.email, user.firstSeenAt, user.lastSeenAt, String(user.verificationCount), user.consent === null ? "" : user.consent ? "yes" : "no", user.source ?? ""];
}
