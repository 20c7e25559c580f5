CREATE TABLE "insights_daily_discovery" (
	"day" date NOT NULL,
	"action_type" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "insights_daily_discovery_day_action_type_pk" PRIMARY KEY("day","action_type")
);
--> statement-breakpoint
CREATE TABLE "insights_daily_engagement" (
	"day" date NOT NULL,
	"event_key" text NOT NULL,
	"click_count" integer DEFAULT 0 NOT NULL,
	"deduped_count" integer DEFAULT 0 NOT NULL,
	"outbound_count" integer DEFAULT 0 NOT NULL,
	"calendar_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_daily_engagement_day_event_key_pk" PRIMARY KEY("day","event_key")
);
--> statement-breakpoint
CREATE TABLE "insights_daily_filters" (
	"day" date NOT NULL,
	"filter_group" text NOT NULL,
	"filter_value" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "insights_daily_filters_day_filter_group_filter_value_pk" PRIMARY KEY("day","filter_group","filter_value")
);
--> statement-breakpoint
CREATE TABLE "insights_daily_searches" (
	"day" date NOT NULL,
	"search_query" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "insights_daily_searches_day_search_query_pk" PRIMARY KEY("day","search_query")
);
--> statement-breakpoint
CREATE TABLE "insights_discovery_session_days" (
	"day" date PRIMARY KEY NOT NULL,
	"sessions" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_discovery_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"prev_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "insights_engagement_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"last_any_at" timestamp with time zone,
	"last_click_at" timestamp with time zone,
	"last_outbound_at" timestamp with time zone,
	"last_calendar_at" timestamp with time zone,
	"prev_any_at" timestamp with time zone,
	"prev_click_at" timestamp with time zone,
	"prev_outbound_at" timestamp with time zone,
	"prev_calendar_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "insights_event_session_days" (
	"day" date NOT NULL,
	"event_key" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "insights_event_session_days_day_event_key_pk" PRIMARY KEY("day","event_key")
);
--> statement-breakpoint
CREATE TABLE "insights_event_sessions" (
	"session_id" text NOT NULL,
	"event_key" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"prev_at" timestamp with time zone,
	CONSTRAINT "insights_event_sessions_session_id_event_key_pk" PRIMARY KEY("session_id","event_key")
);
--> statement-breakpoint
CREATE TABLE "insights_session_days" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "insights_session_days_day_kind_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE INDEX "insights_discovery_sessions_last_idx" ON "insights_discovery_sessions" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "insights_engagement_sessions_any_idx" ON "insights_engagement_sessions" USING btree ("last_any_at");--> statement-breakpoint
CREATE INDEX "insights_engagement_sessions_click_idx" ON "insights_engagement_sessions" USING btree ("last_click_at");--> statement-breakpoint
CREATE INDEX "insights_engagement_sessions_outbound_idx" ON "insights_engagement_sessions" USING btree ("last_outbound_at");--> statement-breakpoint
CREATE INDEX "insights_engagement_sessions_calendar_idx" ON "insights_engagement_sessions" USING btree ("last_calendar_at");--> statement-breakpoint
CREATE INDEX "insights_event_sessions_last_idx" ON "insights_event_sessions" USING btree ("last_at");--> statement-breakpoint
-- Rollup maintenance (docs/insights.md, "Rollups"). Every insert into the tracking tables updates
-- the rollups in the same transaction, through statement triggers that see the inserted rows as
-- `new_rows`. Each trigger first upserts the latest-row time of the batch's sessions: that locks
-- those sessions' rows, in session order, so two batches touching one session apply one after the
-- other, and every later statement (a fresh snapshot each) sees the rows committed before.
CREATE FUNCTION insights_engagement_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  session_days date[];
  session_kinds text[];
  session_moves integer[];
  event_days date[];
  event_keys text[];
  event_moves integer[];
BEGIN
  -- Latest row per session, of any action and per action; a session whose latest row moves to
  -- another Paris day moves from that day's count to the new one.
  WITH up AS (
    INSERT INTO insights_engagement_sessions AS s (session_id, last_any_at, last_click_at, last_outbound_at, last_calendar_at)
    SELECT session_id, max(recorded_at),
      max(recorded_at) FILTER (WHERE action_type = 'click'),
      max(recorded_at) FILTER (WHERE action_type = 'outbound_click'),
      max(recorded_at) FILTER (WHERE action_type = 'calendar_sync')
    FROM new_rows WHERE session_id IS NOT NULL GROUP BY session_id ORDER BY session_id
    ON CONFLICT (session_id) DO UPDATE SET
      prev_any_at = s.last_any_at, prev_click_at = s.last_click_at, prev_outbound_at = s.last_outbound_at, prev_calendar_at = s.last_calendar_at,
      last_any_at = greatest(s.last_any_at, excluded.last_any_at),
      last_click_at = greatest(s.last_click_at, excluded.last_click_at),
      last_outbound_at = greatest(s.last_outbound_at, excluded.last_outbound_at),
      last_calendar_at = greatest(s.last_calendar_at, excluded.last_calendar_at)
    RETURNING prev_any_at, last_any_at, prev_click_at, last_click_at, prev_outbound_at, last_outbound_at, prev_calendar_at, last_calendar_at
  ), moved AS (
    SELECT k.kind, (k.prev AT TIME ZONE 'Europe/Paris')::date AS prev_day, (k.last AT TIME ZONE 'Europe/Paris')::date AS last_day
    FROM up CROSS JOIN LATERAL (VALUES
      ('any', up.prev_any_at, up.last_any_at), ('click', up.prev_click_at, up.last_click_at),
      ('outbound_click', up.prev_outbound_at, up.last_outbound_at), ('calendar_sync', up.prev_calendar_at, up.last_calendar_at)) AS k(kind, prev, last)
  ), steps AS (
    SELECT kind, prev_day AS day, -1 AS n FROM moved WHERE prev_day IS NOT NULL AND prev_day IS DISTINCT FROM last_day
    UNION ALL
    SELECT kind, last_day, 1 FROM moved WHERE last_day IS NOT NULL AND prev_day IS DISTINCT FROM last_day
  ), summed AS (
    SELECT day, kind, sum(n)::integer AS n FROM steps GROUP BY day, kind HAVING sum(n) <> 0
  )
  SELECT array_agg(day ORDER BY day, kind), array_agg(kind ORDER BY day, kind), array_agg(n ORDER BY day, kind)
  INTO session_days, session_kinds, session_moves FROM summed;

  -- Latest row per session and event, the same way.
  WITH up AS (
    INSERT INTO insights_event_sessions AS s (session_id, event_key, last_at)
    SELECT session_id, event_key, max(recorded_at) FROM new_rows WHERE session_id IS NOT NULL
    GROUP BY session_id, event_key ORDER BY session_id, event_key
    ON CONFLICT (session_id, event_key) DO UPDATE SET prev_at = s.last_at, last_at = greatest(s.last_at, excluded.last_at)
    RETURNING event_key, (prev_at AT TIME ZONE 'Europe/Paris')::date AS prev_day, (last_at AT TIME ZONE 'Europe/Paris')::date AS last_day
  ), steps AS (
    SELECT event_key, prev_day AS day, -1 AS n FROM up WHERE prev_day IS NOT NULL AND prev_day IS DISTINCT FROM last_day
    UNION ALL
    SELECT event_key, last_day, 1 FROM up WHERE prev_day IS DISTINCT FROM last_day
  ), summed AS (
    SELECT day, event_key, sum(n)::integer AS n FROM steps GROUP BY day, event_key HAVING sum(n) <> 0
  )
  SELECT array_agg(day ORDER BY day, event_key), array_agg(event_key ORDER BY day, event_key), array_agg(n ORDER BY day, event_key)
  INTO event_days, event_keys, event_moves FROM summed;

  -- Counts per Paris day and event, and the views that pass the 600 s rule: a view counts when it
  -- has no session, or no earlier view of the event in its session, or comes at least 600 s after
  -- the previous one (in (recorded_at, id) order). A new view decides its own flag and can change
  -- the flag of the view right after it, so each touched chain is read from 600 s before its first
  -- new view to 600 s after its last, flagged with and without the new rows, and the difference added.
  WITH chains AS (
    SELECT session_id, event_key, min(recorded_at) AS lo, max(recorded_at) AS hi
    FROM new_rows WHERE action_type = 'click' AND session_id IS NOT NULL GROUP BY session_id, event_key
  ), near AS (
    SELECT e.id, e.session_id, e.event_key, e.recorded_at, e.recorded_at >= c.lo AS scored, n.id IS NOT NULL AS is_new
    FROM chains c
    JOIN engagement_interactions e ON e.session_id = c.session_id AND e.event_key = c.event_key
      AND e.recorded_at >= c.lo - interval '600 seconds' AND e.recorded_at <= c.hi + interval '600 seconds'
      AND e.action_type = 'click'
    LEFT JOIN new_rows n ON n.id = e.id
  ), with_new AS (
    SELECT event_key, recorded_at, scored, recorded_at - lag(recorded_at) OVER (PARTITION BY session_id, event_key ORDER BY recorded_at, id) AS gap
    FROM near
  ), without_new AS (
    SELECT event_key, recorded_at, scored, recorded_at - lag(recorded_at) OVER (PARTITION BY session_id, event_key ORDER BY recorded_at, id) AS gap
    FROM near WHERE NOT is_new
  ), changes AS (
    SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date AS day, event_key,
      count(*) FILTER (WHERE action_type = 'click') AS clicks,
      count(*) FILTER (WHERE action_type = 'click' AND session_id IS NULL) AS deduped,
      count(*) FILTER (WHERE action_type = 'outbound_click') AS outbound,
      count(*) FILTER (WHERE action_type = 'calendar_sync') AS calendar
    FROM new_rows GROUP BY 1, 2
    UNION ALL
    SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, event_key, 0, count(*), 0, 0 FROM with_new
    WHERE scored AND (gap IS NULL OR gap >= interval '600 seconds') GROUP BY 1, 2
    UNION ALL
    SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, event_key, 0, -count(*), 0, 0 FROM without_new
    WHERE scored AND (gap IS NULL OR gap >= interval '600 seconds') GROUP BY 1, 2
  )
  INSERT INTO insights_daily_engagement AS d (day, event_key, click_count, deduped_count, outbound_count, calendar_count)
  SELECT day, event_key, sum(clicks), sum(deduped), sum(outbound), sum(calendar) FROM changes GROUP BY day, event_key
  HAVING sum(clicks) <> 0 OR sum(deduped) <> 0 OR sum(outbound) <> 0 OR sum(calendar) <> 0
  ORDER BY day, event_key
  ON CONFLICT (day, event_key) DO UPDATE SET
    click_count = d.click_count + excluded.click_count,
    deduped_count = d.deduped_count + excluded.deduped_count,
    outbound_count = d.outbound_count + excluded.outbound_count,
    calendar_count = d.calendar_count + excluded.calendar_count;

  -- The per-day session counts last: every batch updates today's rows, so they are held briefly.
  IF session_days IS NOT NULL THEN
    INSERT INTO insights_session_days AS d (day, kind, sessions)
    SELECT * FROM unnest(session_days, session_kinds, session_moves)
    ON CONFLICT (day, kind) DO UPDATE SET sessions = d.sessions + excluded.sessions;
  END IF;
  IF event_days IS NOT NULL THEN
    INSERT INTO insights_event_session_days AS d (day, event_key, sessions)
    SELECT * FROM unnest(event_days, event_keys, event_moves)
    ON CONFLICT (day, event_key) DO UPDATE SET sessions = d.sessions + excluded.sessions;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER insights_engagement_rollups AFTER INSERT ON engagement_interactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION insights_engagement_inserted();
--> statement-breakpoint
CREATE FUNCTION insights_discovery_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  session_days date[];
  session_moves integer[];
BEGIN
  WITH up AS (
    INSERT INTO insights_discovery_sessions AS s (session_id, last_at)
    SELECT session_id, max(recorded_at) FROM new_rows WHERE session_id IS NOT NULL GROUP BY session_id ORDER BY session_id
    ON CONFLICT (session_id) DO UPDATE SET prev_at = s.last_at, last_at = greatest(s.last_at, excluded.last_at)
    RETURNING (prev_at AT TIME ZONE 'Europe/Paris')::date AS prev_day, (last_at AT TIME ZONE 'Europe/Paris')::date AS last_day
  ), steps AS (
    SELECT prev_day AS day, -1 AS n FROM up WHERE prev_day IS NOT NULL AND prev_day IS DISTINCT FROM last_day
    UNION ALL
    SELECT last_day, 1 FROM up WHERE prev_day IS DISTINCT FROM last_day
  ), summed AS (
    SELECT day, sum(n)::integer AS n FROM steps GROUP BY day HAVING sum(n) <> 0
  )
  SELECT array_agg(day ORDER BY day), array_agg(n ORDER BY day) INTO session_days, session_moves FROM summed;

  INSERT INTO insights_daily_filters AS d (day, filter_group, filter_value, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, filter_group, filter_value, count(*) FROM new_rows
  WHERE action_type = 'filter_apply' AND filter_group IS NOT NULL AND filter_value IS NOT NULL
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (day, filter_group, filter_value) DO UPDATE SET count = d.count + excluded.count;

  INSERT INTO insights_daily_searches AS d (day, search_query, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, search_query, count(*) FROM new_rows
  WHERE action_type = 'search' AND search_query IS NOT NULL
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (day, search_query) DO UPDATE SET count = d.count + excluded.count;

  INSERT INTO insights_daily_discovery AS d (day, action_type, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, action_type, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (day, action_type) DO UPDATE SET count = d.count + excluded.count;

  IF session_days IS NOT NULL THEN
    INSERT INTO insights_discovery_session_days AS d (day, sessions)
    SELECT * FROM unnest(session_days, session_moves)
    ON CONFLICT (day) DO UPDATE SET sessions = d.sessions + excluded.sessions;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER insights_discovery_rollups AFTER INSERT ON discovery_interactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION insights_discovery_inserted();
--> statement-breakpoint
-- Recomputes every rollup from the raw rows (inputs in key order, so the primary keys fill in
-- order), except the days the retention job has archived
-- (before insights_archive_state.archived_before), whose raw rows are gone: those days' rollups
-- and the latest-row times before the boundary are kept. Inserts wait while it runs.
CREATE FUNCTION insights_rebuild_rollups() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  boundary timestamptz;
  first_day date;
BEGIN
  LOCK TABLE engagement_interactions, discovery_interactions IN SHARE MODE;
  SELECT archived_before INTO boundary FROM insights_archive_state WHERE id = 1;
  IF boundary IS NULL THEN
    boundary := '-infinity';
    first_day := '-infinity';
    TRUNCATE insights_engagement_sessions, insights_event_sessions, insights_discovery_sessions;
  ELSE
    first_day := (boundary AT TIME ZONE 'Europe/Paris')::date;
    UPDATE insights_engagement_sessions SET
      last_any_at = CASE WHEN last_any_at < boundary THEN last_any_at END,
      last_click_at = CASE WHEN last_click_at < boundary THEN last_click_at END,
      last_outbound_at = CASE WHEN last_outbound_at < boundary THEN last_outbound_at END,
      last_calendar_at = CASE WHEN last_calendar_at < boundary THEN last_calendar_at END;
    DELETE FROM insights_engagement_sessions WHERE num_nonnulls(last_any_at, last_click_at, last_outbound_at, last_calendar_at) = 0;
    DELETE FROM insights_event_sessions WHERE last_at >= boundary;
    DELETE FROM insights_discovery_sessions WHERE last_at >= boundary;
  END IF;

  DELETE FROM insights_daily_engagement WHERE day >= first_day;
  INSERT INTO insights_daily_engagement (day, event_key, click_count, deduped_count, outbound_count, calendar_count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, event_key,
    count(*) FILTER (WHERE action_type = 'click'),
    count(*) FILTER (WHERE action_type = 'click' AND (session_id IS NULL OR gap IS NULL OR gap >= interval '600 seconds')),
    count(*) FILTER (WHERE action_type = 'outbound_click'),
    count(*) FILTER (WHERE action_type = 'calendar_sync')
  FROM (
    SELECT event_key, action_type, session_id, recorded_at,
      recorded_at - lag(recorded_at) OVER (PARTITION BY session_id, event_key, action_type ORDER BY recorded_at, id) AS gap
    FROM engagement_interactions WHERE recorded_at >= boundary - interval '600 seconds'
  ) r
  WHERE recorded_at >= boundary GROUP BY 1, 2;

  INSERT INTO insights_engagement_sessions AS s (session_id, last_any_at, last_click_at, last_outbound_at, last_calendar_at)
  SELECT session_id, max(recorded_at),
    max(recorded_at) FILTER (WHERE action_type = 'click'),
    max(recorded_at) FILTER (WHERE action_type = 'outbound_click'),
    max(recorded_at) FILTER (WHERE action_type = 'calendar_sync')
  FROM engagement_interactions WHERE session_id IS NOT NULL GROUP BY session_id ORDER BY session_id
  ON CONFLICT (session_id) DO UPDATE SET
    last_any_at = greatest(s.last_any_at, excluded.last_any_at),
    last_click_at = greatest(s.last_click_at, excluded.last_click_at),
    last_outbound_at = greatest(s.last_outbound_at, excluded.last_outbound_at),
    last_calendar_at = greatest(s.last_calendar_at, excluded.last_calendar_at);
  UPDATE insights_engagement_sessions SET prev_any_at = NULL, prev_click_at = NULL, prev_outbound_at = NULL, prev_calendar_at = NULL
  WHERE num_nonnulls(prev_any_at, prev_click_at, prev_outbound_at, prev_calendar_at) > 0;

  INSERT INTO insights_event_sessions AS s (session_id, event_key, last_at)
  SELECT session_id, event_key, max(recorded_at) FROM engagement_interactions WHERE session_id IS NOT NULL GROUP BY session_id, event_key ORDER BY session_id, event_key
  ON CONFLICT (session_id, event_key) DO UPDATE SET last_at = greatest(s.last_at, excluded.last_at);

  TRUNCATE insights_session_days, insights_event_session_days, insights_discovery_session_days;
  INSERT INTO insights_session_days (day, kind, sessions)
  SELECT (k.at AT TIME ZONE 'Europe/Paris')::date, k.kind, count(*)
  FROM insights_engagement_sessions s CROSS JOIN LATERAL (VALUES
    ('any', s.last_any_at), ('click', s.last_click_at), ('outbound_click', s.last_outbound_at), ('calendar_sync', s.last_calendar_at)) AS k(kind, at)
  WHERE k.at IS NOT NULL GROUP BY 1, 2;
  INSERT INTO insights_event_session_days (day, event_key, sessions)
  SELECT (last_at AT TIME ZONE 'Europe/Paris')::date, event_key, count(*) FROM insights_event_sessions GROUP BY 1, 2;

  DELETE FROM insights_daily_discovery WHERE day >= first_day;
  DELETE FROM insights_daily_filters WHERE day >= first_day;
  DELETE FROM insights_daily_searches WHERE day >= first_day;
  INSERT INTO insights_daily_discovery (day, action_type, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, action_type, count(*) FROM discovery_interactions
  WHERE recorded_at >= boundary GROUP BY 1, 2;
  INSERT INTO insights_daily_filters (day, filter_group, filter_value, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, filter_group, filter_value, count(*) FROM discovery_interactions
  WHERE recorded_at >= boundary AND action_type = 'filter_apply' AND filter_group IS NOT NULL AND filter_value IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO insights_daily_searches (day, search_query, count)
  SELECT (recorded_at AT TIME ZONE 'Europe/Paris')::date, search_query, count(*) FROM discovery_interactions
  WHERE recorded_at >= boundary AND action_type = 'search' AND search_query IS NOT NULL GROUP BY 1, 2;

  INSERT INTO insights_discovery_sessions AS s (session_id, last_at)
  SELECT session_id, max(recorded_at) FROM discovery_interactions WHERE session_id IS NOT NULL GROUP BY session_id ORDER BY session_id
  ON CONFLICT (session_id) DO UPDATE SET last_at = greatest(s.last_at, excluded.last_at);
  UPDATE insights_discovery_sessions SET prev_at = NULL WHERE prev_at IS NOT NULL;
  INSERT INTO insights_discovery_session_days (day, sessions)
  SELECT (last_at AT TIME ZONE 'Europe/Paris')::date, count(*) FROM insights_discovery_sessions GROUP BY 1;
END
$$;
--> statement-breakpoint
-- Days already archived by the retention job move into the rollups (a session's latest row on
-- such a day stands as that day's Paris midnight: only its day is ever read), then everything
-- after the boundary is computed from the raw rows.
INSERT INTO insights_daily_engagement (day, event_key, click_count, deduped_count, outbound_count, calendar_count)
SELECT day, event_key, click_count, deduped_count, outbound_count, calendar_count FROM insights_archive_engagement;
--> statement-breakpoint
INSERT INTO insights_engagement_sessions (session_id, last_any_at, last_click_at, last_outbound_at, last_calendar_at)
SELECT session_id, max(day)::timestamp AT TIME ZONE 'Europe/Paris',
  (max(day) FILTER (WHERE clicked))::timestamp AT TIME ZONE 'Europe/Paris',
  (max(day) FILTER (WHERE outbound))::timestamp AT TIME ZONE 'Europe/Paris',
  (max(day) FILTER (WHERE calendar))::timestamp AT TIME ZONE 'Europe/Paris'
FROM insights_archive_sessions GROUP BY session_id;
--> statement-breakpoint
INSERT INTO insights_event_sessions (session_id, event_key, last_at)
SELECT session_id, event_key, max(day)::timestamp AT TIME ZONE 'Europe/Paris' FROM insights_archive_sessions GROUP BY session_id, event_key;
--> statement-breakpoint
INSERT INTO insights_daily_discovery (day, action_type, count)
SELECT day, action_type, sum(count) FROM insights_archive_discovery GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO insights_daily_filters (day, filter_group, filter_value, count)
SELECT day, filter_group, filter_value, sum(count) FROM insights_archive_discovery
WHERE action_type = 'filter_apply' AND filter_group IS NOT NULL AND filter_value IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO insights_daily_searches (day, search_query, count)
SELECT day, search_query, sum(count) FROM insights_archive_discovery
WHERE action_type = 'search' AND search_query IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO insights_discovery_sessions (session_id, last_at)
SELECT session_id, max(day)::timestamp AT TIME ZONE 'Europe/Paris' FROM insights_archive_discovery_sessions GROUP BY session_id;
--> statement-breakpoint
-- Existing rows: about a minute per few million on a small server, longer than the connection's
-- statement timeout allows, so it is lifted for this migration's transaction.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
SELECT insights_rebuild_rollups();
--> statement-breakpoint
DROP TABLE "insights_archive_discovery" CASCADE;--> statement-breakpoint
DROP TABLE "insights_archive_discovery_sessions" CASCADE;--> statement-breakpoint
DROP TABLE "insights_archive_engagement" CASCADE;--> statement-breakpoint
DROP TABLE "insights_archive_sessions" CASCADE;
