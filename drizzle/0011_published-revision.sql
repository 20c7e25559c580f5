CREATE TABLE "event_store_published" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint NOT NULL,
	"stamp" uuid DEFAULT gen_random_uuid() NOT NULL,
	"store_revision" bigint NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"published_by" text NOT NULL,
	"trigger" text NOT NULL,
	"row_count" integer NOT NULL,
	"sheet" text NOT NULL,
	"row_states" text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "engagement_calendar_id_idx" ON "engagement_interactions" USING btree ("id") WHERE "engagement_interactions"."action_type" = 'calendar_sync';--> statement-breakpoint
-- Hand-written: the two new core columns (Status, Status Note) join existing stores after the
-- other core columns; custom columns move two places down.
UPDATE "event_store_columns" SET "display_order" = "display_order" + 2 WHERE NOT "is_core";
--> statement-breakpoint
INSERT INTO "event_store_columns" ("key", "label", "is_core", "is_required", "display_order")
SELECT v.key, v.label, true, false, (SELECT coalesce(max("display_order"), -1) FROM "event_store_columns" WHERE "is_core") + v.n
FROM (VALUES ('status', 'Status', 1), ('statusNote', 'Status Note', 2)) AS v(key, label, n)
WHERE EXISTS (SELECT 1 FROM "event_store_columns")
ON CONFLICT ("key") DO NOTHING;
--> statement-breakpoint
-- Hand-written: a store from before publishing existed treats its working sheet as published once.
INSERT INTO "event_store_published" ("id", "version", "store_revision", "published_at", "published_by", "trigger", "row_count", "sheet", "row_states")
SELECT 1, 1, m."revision", m."updated_at", 'system', 'migration', m."row_count",
  json_build_object(
    'columns', coalesce((SELECT json_agg(json_build_array(c."key", c."label") ORDER BY c."display_order") FROM "event_store_columns" c), '[]'::json),
    'rows', coalesce((SELECT json_agg(json_build_array(r."id", r."row_data") ORDER BY r."display_order") FROM "event_store_rows" r), '[]'::json)
  )::text,
  '{}'
FROM "event_store_meta" m WHERE m."id" = 1
ON CONFLICT ("id") DO NOTHING;
