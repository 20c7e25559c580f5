CREATE TABLE "partner_stats" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"click_count" integer DEFAULT 0 NOT NULL,
	"outbound_count" integer DEFAULT 0 NOT NULL,
	"calendar_count" integer DEFAULT 0 NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"view_sessions" integer DEFAULT 0 NOT NULL,
	"outbound_sessions" integer DEFAULT 0 NOT NULL,
	"calendar_sessions" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_stats_days" (
	"order_id" uuid NOT NULL,
	"day" date NOT NULL,
	"row_count" integer NOT NULL,
	"click_count" integer NOT NULL,
	"outbound_count" integer NOT NULL,
	"calendar_count" integer NOT NULL,
	CONSTRAINT "partner_stats_days_order_id_day_pk" PRIMARY KEY("order_id","day")
);
--> statement-breakpoint
CREATE TABLE "partner_stats_sessions" (
	"order_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"row_count" integer NOT NULL,
	"click_count" integer NOT NULL,
	"outbound_count" integer NOT NULL,
	"calendar_count" integer NOT NULL,
	CONSTRAINT "partner_stats_sessions_order_id_session_id_pk" PRIMARY KEY("order_id","session_id")
);
--> statement-breakpoint
CREATE INDEX "partner_stats_event_idx" ON "partner_stats" USING btree ("event_key","start_at");--> statement-breakpoint
-- Partner statistics rollups (docs/placements.md, "Partner statistics"). An activation's rollup
-- holds exactly the engagement records of its key with start_at <= recorded_at < end_at (no end:
-- open-ended). Every change to engagement_interactions changes the rollups in the same
-- transaction, through statement triggers that see the changed rows as transition tables; every
-- change to an order's activation recomputes its rollup from the raw records while engagement
-- writes wait (share lock), so no record is counted twice or missed.
--
-- partner_stats_apply adds per-(activation, session, Paris day) changes, positive or negative: per
-- session first (key order, so concurrent batches lock in the same order), a distinct-session
-- count moving when a session's count goes from 0 to more or back; then per day; emptied session
-- and day rows are deleted; the activation's row last (it is the one every batch of that key
-- updates, so it is held the shortest).
CREATE FUNCTION partner_stats_apply(d_order uuid[], d_session text[], d_day date[], d_rows integer[], d_clicks integer[], d_outbound integer[], d_calendar integer[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  m_order uuid[];
  m_sessions integer[];
  m_views integer[];
  m_outbound integer[];
  m_calendar integer[];
BEGIN
  WITH d AS (
    SELECT order_id, session_id, sum(n)::integer AS n, sum(clicks)::integer AS clicks, sum(outbound)::integer AS outbound, sum(calendar)::integer AS calendar
    FROM unnest(d_order, d_session, d_rows, d_clicks, d_outbound, d_calendar) AS x(order_id, session_id, n, clicks, outbound, calendar)
    WHERE session_id IS NOT NULL GROUP BY 1, 2
    HAVING sum(n) <> 0 OR sum(clicks) <> 0 OR sum(outbound) <> 0 OR sum(calendar) <> 0
  ), up AS (
    INSERT INTO partner_stats_sessions AS s (order_id, session_id, row_count, click_count, outbound_count, calendar_count)
    SELECT order_id, session_id, n, clicks, outbound, calendar FROM d ORDER BY order_id, session_id
    ON CONFLICT (order_id, session_id) DO UPDATE SET
      row_count = s.row_count + excluded.row_count,
      click_count = s.click_count + excluded.click_count,
      outbound_count = s.outbound_count + excluded.outbound_count,
      calendar_count = s.calendar_count + excluded.calendar_count
    RETURNING s.order_id, s.session_id, s.row_count, s.click_count, s.outbound_count, s.calendar_count
  ), moved AS (
    -- The row after the change against the row before it (after minus the change).
    SELECT up.order_id,
      sum((up.row_count > 0)::integer - (up.row_count - d.n > 0)::integer)::integer AS sessions,
      sum((up.click_count > 0)::integer - (up.click_count - d.clicks > 0)::integer)::integer AS views,
      sum((up.outbound_count > 0)::integer - (up.outbound_count - d.outbound > 0)::integer)::integer AS outbound,
      sum((up.calendar_count > 0)::integer - (up.calendar_count - d.calendar > 0)::integer)::integer AS calendar
    FROM up JOIN d ON d.order_id = up.order_id AND d.session_id = up.session_id
    GROUP BY up.order_id
  )
  SELECT array_agg(order_id), array_agg(sessions), array_agg(views), array_agg(outbound), array_agg(calendar)
  INTO m_order, m_sessions, m_views, m_outbound, m_calendar FROM moved;

  INSERT INTO partner_stats_days AS s (order_id, day, row_count, click_count, outbound_count, calendar_count)
  SELECT order_id, day, sum(n), sum(clicks), sum(outbound), sum(calendar)
  FROM unnest(d_order, d_day, d_rows, d_clicks, d_outbound, d_calendar) AS x(order_id, day, n, clicks, outbound, calendar)
  GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(clicks) <> 0 OR sum(outbound) <> 0 OR sum(calendar) <> 0
  ORDER BY 1, 2
  ON CONFLICT (order_id, day) DO UPDATE SET
    row_count = s.row_count + excluded.row_count,
    click_count = s.click_count + excluded.click_count,
    outbound_count = s.outbound_count + excluded.outbound_count,
    calendar_count = s.calendar_count + excluded.calendar_count;

  IF 0 > ANY (d_rows) THEN
    DELETE FROM partner_stats_sessions s USING (SELECT DISTINCT order_id, session_id FROM unnest(d_order, d_session) AS x(order_id, session_id)) x
    WHERE s.order_id = x.order_id AND s.session_id = x.session_id AND s.row_count = 0;
    DELETE FROM partner_stats_days s USING (SELECT DISTINCT order_id, day FROM unnest(d_order, d_day) AS x(order_id, day)) x
    WHERE s.order_id = x.order_id AND s.day = x.day AND s.row_count = 0;
  END IF;

  -- Several activations in one change: their rows are locked in id order, as any other change does.
  IF cardinality(d_order) > 1 THEN
    PERFORM 1 FROM partner_stats WHERE order_id = ANY (d_order) ORDER BY order_id FOR NO KEY UPDATE;
  END IF;
  UPDATE partner_stats p SET
    click_count = p.click_count + t.clicks,
    outbound_count = p.outbound_count + t.outbound,
    calendar_count = p.calendar_count + t.calendar,
    sessions = p.sessions + coalesce(m.sessions, 0),
    view_sessions = p.view_sessions + coalesce(m.views, 0),
    outbound_sessions = p.outbound_sessions + coalesce(m.outbound, 0),
    calendar_sessions = p.calendar_sessions + coalesce(m.calendar, 0)
  FROM (
    SELECT order_id, sum(clicks)::integer AS clicks, sum(outbound)::integer AS outbound, sum(calendar)::integer AS calendar
    FROM unnest(d_order, d_clicks, d_outbound, d_calendar) AS x(order_id, clicks, outbound, calendar) GROUP BY 1
  ) t LEFT JOIN unnest(m_order, m_sessions, m_views, m_outbound, m_calendar) AS m(order_id, sessions, views, outbound, calendar) ON m.order_id = t.order_id
  WHERE p.order_id = t.order_id
    AND (t.clicks <> 0 OR t.outbound <> 0 OR t.calendar <> 0 OR m.sessions <> 0 OR m.views <> 0 OR m.outbound <> 0 OR m.calendar <> 0);
END
$$;
--> statement-breakpoint
-- The records of a statement that fall in an activation's window, per (activation, session, Paris
-- day), as +1 (inserted) or -1 (deleted; an update is both).
CREATE FUNCTION partner_stats_engagement_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_order uuid[];
  d_session text[];
  d_day date[];
  d_rows integer[];
  d_clicks integer[];
  d_outbound integer[];
  d_calendar integer[];
BEGIN
  SELECT array_agg(order_id), array_agg(session_id), array_agg(day), array_agg(n), array_agg(clicks), array_agg(outbound), array_agg(calendar)
  INTO d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar
  FROM (
    SELECT p.order_id, r.session_id, (r.recorded_at AT TIME ZONE 'Europe/Paris')::date AS day, count(*)::integer AS n,
      count(*) FILTER (WHERE r.action_type = 'click')::integer AS clicks,
      count(*) FILTER (WHERE r.action_type = 'outbound_click')::integer AS outbound,
      count(*) FILTER (WHERE r.action_type = 'calendar_sync')::integer AS calendar
    FROM new_rows r JOIN partner_stats p ON p.event_key = r.event_key AND r.recorded_at >= p.start_at AND r.recorded_at < coalesce(p.end_at, 'infinity')
    GROUP BY 1, 2, 3
  ) g;
  IF d_order IS NOT NULL THEN
    PERFORM partner_stats_apply(d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION partner_stats_engagement_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_order uuid[];
  d_session text[];
  d_day date[];
  d_rows integer[];
  d_clicks integer[];
  d_outbound integer[];
  d_calendar integer[];
BEGIN
  SELECT array_agg(order_id), array_agg(session_id), array_agg(day), array_agg(n), array_agg(clicks), array_agg(outbound), array_agg(calendar)
  INTO d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar
  FROM (
    SELECT p.order_id, r.session_id, (r.recorded_at AT TIME ZONE 'Europe/Paris')::date AS day, -count(*)::integer AS n,
      -count(*) FILTER (WHERE r.action_type = 'click')::integer AS clicks,
      -count(*) FILTER (WHERE r.action_type = 'outbound_click')::integer AS outbound,
      -count(*) FILTER (WHERE r.action_type = 'calendar_sync')::integer AS calendar
    FROM old_rows r JOIN partner_stats p ON p.event_key = r.event_key AND r.recorded_at >= p.start_at AND r.recorded_at < coalesce(p.end_at, 'infinity')
    GROUP BY 1, 2, 3
  ) g;
  IF d_order IS NOT NULL THEN
    PERFORM partner_stats_apply(d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Erasure only clears user_email (nothing moves); any other change is its old rows out and its new rows in.
CREATE FUNCTION partner_stats_engagement_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_order uuid[];
  d_session text[];
  d_day date[];
  d_rows integer[];
  d_clicks integer[];
  d_outbound integer[];
  d_calendar integer[];
BEGIN
  SELECT array_agg(order_id), array_agg(session_id), array_agg(day), array_agg(n), array_agg(clicks), array_agg(outbound), array_agg(calendar)
  INTO d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar
  FROM (
    SELECT p.order_id, r.session_id, (r.recorded_at AT TIME ZONE 'Europe/Paris')::date AS day, sum(r.sign)::integer AS n,
      coalesce(sum(r.sign) FILTER (WHERE r.action_type = 'click'), 0)::integer AS clicks,
      coalesce(sum(r.sign) FILTER (WHERE r.action_type = 'outbound_click'), 0)::integer AS outbound,
      coalesce(sum(r.sign) FILTER (WHERE r.action_type = 'calendar_sync'), 0)::integer AS calendar
    FROM (
      SELECT event_key, session_id, action_type, recorded_at, 1 AS sign FROM new_rows
      UNION ALL
      SELECT event_key, session_id, action_type, recorded_at, -1 FROM old_rows
    ) r JOIN partner_stats p ON p.event_key = r.event_key AND r.recorded_at >= p.start_at AND r.recorded_at < coalesce(p.end_at, 'infinity')
    GROUP BY 1, 2, 3
    HAVING sum(r.sign) <> 0 OR sum(r.sign) FILTER (WHERE r.action_type = 'click') <> 0
      OR sum(r.sign) FILTER (WHERE r.action_type = 'outbound_click') <> 0 OR sum(r.sign) FILTER (WHERE r.action_type = 'calendar_sync') <> 0
  ) g;
  IF d_order IS NOT NULL THEN
    PERFORM partner_stats_apply(d_order, d_session, d_day, d_rows, d_clicks, d_outbound, d_calendar);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION partner_stats_engagement_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM partner_stats_sessions;
  DELETE FROM partner_stats_days;
  UPDATE partner_stats SET click_count = 0, outbound_count = 0, calendar_count = 0, sessions = 0, view_sessions = 0, outbound_sessions = 0, calendar_sessions = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER partner_stats_engagement_inserted AFTER INSERT ON engagement_interactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_stats_engagement_inserted();
--> statement-breakpoint
CREATE TRIGGER partner_stats_engagement_deleted AFTER DELETE ON engagement_interactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_stats_engagement_deleted();
--> statement-breakpoint
CREATE TRIGGER partner_stats_engagement_updated AFTER UPDATE ON engagement_interactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_stats_engagement_updated();
--> statement-breakpoint
CREATE TRIGGER partner_stats_engagement_truncated AFTER TRUNCATE ON engagement_interactions
  FOR EACH STATEMENT EXECUTE FUNCTION partner_stats_engagement_truncated();
--> statement-breakpoint
-- Recomputes one order's rollup from the raw records when its activation changed: an activated
-- order with a fulfilled key and tier has one, over the window partner statistics read (start =
-- fulfilled start, else activated_at, else created_at; end = fulfilled end unless missing or before
-- the start: then open-ended); any other order has none. Unchanged window: nothing to do.
-- Engagement writes wait from here to the end of the transaction (share lock), so no record
-- reaches the raw table without reaching the new rollup. Planned for its actual values: the
-- window may hold most of the key's records or a handful.
CREATE FUNCTION partner_stats_refresh(o paid_orders) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  k text;
  s timestamptz;
  e timestamptz;
  cur partner_stats;
BEGIN
  IF o.status = 'activated' AND o.fulfilled_event_key IS NOT NULL AND o.fulfilled_tier IN ('spotlight', 'promoted') THEN
    k := lower(o.fulfilled_event_key);
    s := coalesce(o.fulfilled_start_at, o.activated_at, o.created_at);
    e := CASE WHEN o.fulfilled_end_at >= s THEN o.fulfilled_end_at END;
  END IF;
  SELECT * INTO cur FROM partner_stats WHERE order_id = o.id;
  IF NOT FOUND AND k IS NULL THEN
    RETURN;
  END IF;
  IF FOUND AND cur.event_key = k AND cur.start_at = s AND cur.end_at IS NOT DISTINCT FROM e THEN
    RETURN;
  END IF;
  LOCK TABLE engagement_interactions IN SHARE MODE;
  DELETE FROM partner_stats_sessions WHERE order_id = o.id;
  DELETE FROM partner_stats_days WHERE order_id = o.id;
  DELETE FROM partner_stats WHERE order_id = o.id;
  IF k IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO partner_stats_sessions (order_id, session_id, row_count, click_count, outbound_count, calendar_count)
  SELECT o.id, session_id, count(*), count(*) FILTER (WHERE action_type = 'click'),
    count(*) FILTER (WHERE action_type = 'outbound_click'), count(*) FILTER (WHERE action_type = 'calendar_sync')
  FROM engagement_interactions
  WHERE event_key = k AND recorded_at >= s AND recorded_at < coalesce(e, 'infinity') AND session_id IS NOT NULL
  GROUP BY session_id ORDER BY session_id;
  INSERT INTO partner_stats_days (order_id, day, row_count, click_count, outbound_count, calendar_count)
  SELECT o.id, (recorded_at AT TIME ZONE 'Europe/Paris')::date, count(*), count(*) FILTER (WHERE action_type = 'click'),
    count(*) FILTER (WHERE action_type = 'outbound_click'), count(*) FILTER (WHERE action_type = 'calendar_sync')
  FROM engagement_interactions
  WHERE event_key = k AND recorded_at >= s AND recorded_at < coalesce(e, 'infinity')
  GROUP BY 2 ORDER BY 2;
  INSERT INTO partner_stats (order_id, event_key, start_at, end_at, click_count, outbound_count, calendar_count, sessions, view_sessions, outbound_sessions, calendar_sessions)
  SELECT o.id, k, s, e, d.clicks, d.outbound, d.calendar, x.sessions, x.views, x.outbound, x.calendar
  FROM (SELECT coalesce(sum(click_count), 0)::integer AS clicks, coalesce(sum(outbound_count), 0)::integer AS outbound, coalesce(sum(calendar_count), 0)::integer AS calendar
        FROM partner_stats_days WHERE order_id = o.id) d,
       (SELECT count(*)::integer AS sessions, count(*) FILTER (WHERE click_count > 0)::integer AS views,
          count(*) FILTER (WHERE outbound_count > 0)::integer AS outbound, count(*) FILTER (WHERE calendar_count > 0)::integer AS calendar
        FROM partner_stats_sessions WHERE order_id = o.id) x;
END
$$;
--> statement-breakpoint
-- Removes one order's rollup (the order is deleted, or its id changed), engagement writes waiting.
CREATE FUNCTION partner_stats_remove(target uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM partner_stats WHERE order_id = target) THEN
    LOCK TABLE engagement_interactions IN SHARE MODE;
    DELETE FROM partner_stats_sessions WHERE order_id = target;
    DELETE FROM partner_stats_days WHERE order_id = target;
    DELETE FROM partner_stats WHERE order_id = target;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION partner_stats_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM partner_stats_remove(OLD.id);
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN
    PERFORM partner_stats_remove(OLD.id);
  END IF;
  PERFORM partner_stats_refresh(NEW);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION partner_stats_orders_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM partner_stats_sessions;
  DELETE FROM partner_stats_days;
  DELETE FROM partner_stats;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER partner_stats_order_saved AFTER INSERT OR UPDATE OF id, status, fulfilled_event_key, fulfilled_tier, fulfilled_start_at, fulfilled_end_at, activated_at, created_at
  ON paid_orders FOR EACH ROW EXECUTE FUNCTION partner_stats_order_changed();
--> statement-breakpoint
CREATE TRIGGER partner_stats_order_deleted BEFORE DELETE ON paid_orders FOR EACH ROW EXECUTE FUNCTION partner_stats_order_changed();
--> statement-breakpoint
CREATE TRIGGER partner_stats_orders_truncated AFTER TRUNCATE ON paid_orders FOR EACH STATEMENT EXECUTE FUNCTION partner_stats_orders_truncated();
--> statement-breakpoint
-- Recomputes every rollup from the raw records (`npm run partners:rebuild`); order changes and
-- engagement writes wait until it commits.
CREATE FUNCTION partner_stats_rebuild() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  o paid_orders;
BEGIN
  LOCK TABLE paid_orders IN SHARE MODE;
  LOCK TABLE engagement_interactions IN SHARE MODE;
  DELETE FROM partner_stats_sessions;
  DELETE FROM partner_stats_days;
  DELETE FROM partner_stats;
  FOR o IN SELECT * FROM paid_orders WHERE status = 'activated' ORDER BY id LOOP
    PERFORM partner_stats_refresh(o);
  END LOOP;
  RETURN (SELECT count(*) FROM partner_stats);
END
$$;
--> statement-breakpoint
-- Existing activations: their windows may hold millions of records, longer than the
-- connection's statement timeout allows, so it is lifted for this migration's transaction.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
SELECT partner_stats_rebuild();
