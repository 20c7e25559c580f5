-- The insights rollups' per-session latest-row tables keep only their primary keys
-- (docs/insights.md, "Rollups"). Every tracking batch upserts its sessions into them; each index
-- on a latest-row time cost an entry per new session and made every update of an existing one
-- write a new entry in every index (an update that changes an indexed column cannot be
-- heap-only). The dashboard now finds a window's partial first day through the raw rows and looks
-- those sessions up by key. The per-session-and-event table keeps its (last_at, event_key) index.
DROP INDEX "insights_discovery_sessions_last_idx";--> statement-breakpoint
DROP INDEX "insights_engagement_sessions_any_idx";--> statement-breakpoint
DROP INDEX "insights_engagement_sessions_click_idx";--> statement-breakpoint
DROP INDEX "insights_engagement_sessions_outbound_idx";--> statement-breakpoint
DROP INDEX "insights_engagement_sessions_calendar_idx";--> statement-breakpoint
-- Room on each page for the new version of an updated row, so the upserts of existing sessions
-- stay heap-only (the pages filled before this keep their old setting until rewritten).
ALTER TABLE "insights_engagement_sessions" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "insights_discovery_sessions" SET (fillfactor = 80);--> statement-breakpoint
-- The engagement trigger of 0007, its daily counts read chain by chain and planned per batch.
CREATE OR REPLACE FUNCTION insights_engagement_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
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
  -- Each chain is one range of a session-and-event index: the lateral subquery (kept apart by
  -- OFFSET 0) names only the session, the event and the time, in that index's order, so no plan
  -- can read it through the (action_type, recorded_at) index instead: on a table not yet analysed
  -- that looks as cheap and reads every view of the last minutes once per chain. The action is
  -- filtered outside. The statement is planned for each batch (EXECUTE): a plan kept from the
  -- connection's first batch, made while the table was empty, would be kept as the table grows.
  EXECUTE $sql$
  WITH chains AS (
    SELECT session_id, event_key, min(recorded_at) AS lo, max(recorded_at) AS hi
    FROM new_rows WHERE action_type = 'click' AND session_id IS NOT NULL GROUP BY session_id, event_key
  ), near AS (
    SELECT e.id, c.session_id, c.event_key, e.recorded_at, e.recorded_at >= c.lo AS scored, e.id IN (SELECT id FROM new_rows) AS is_new
    FROM chains c CROSS JOIN LATERAL (
      SELECT id, action_type, recorded_at FROM engagement_interactions
      WHERE session_id = c.session_id AND event_key = c.event_key
        AND recorded_at >= c.lo - interval '600 seconds' AND recorded_at <= c.hi + interval '600 seconds'
      ORDER BY recorded_at OFFSET 0
    ) e
    WHERE e.action_type = 'click'
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
    calendar_count = d.calendar_count + excluded.calendar_count
  $sql$;

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
