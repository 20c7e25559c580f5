CREATE TABLE "insights_archive_discovery" (
	"day" date NOT NULL,
	"action_type" text NOT NULL,
	"filter_group" text,
	"filter_value" text,
	"search_query" text,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_archive_discovery_sessions" (
	"day" date NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "insights_archive_discovery_sessions_day_session_id_pk" PRIMARY KEY("day","session_id")
);
--> statement-breakpoint
CREATE TABLE "insights_archive_engagement" (
	"day" date NOT NULL,
	"event_key" text NOT NULL,
	"click_count" integer DEFAULT 0 NOT NULL,
	"deduped_count" integer DEFAULT 0 NOT NULL,
	"outbound_count" integer DEFAULT 0 NOT NULL,
	"calendar_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_archive_engagement_day_event_key_pk" PRIMARY KEY("day","event_key")
);
--> statement-breakpoint
CREATE TABLE "insights_archive_sessions" (
	"day" date NOT NULL,
	"event_key" text NOT NULL,
	"session_id" text NOT NULL,
	"clicked" boolean DEFAULT false NOT NULL,
	"outbound" boolean DEFAULT false NOT NULL,
	"calendar" boolean DEFAULT false NOT NULL,
	CONSTRAINT "insights_archive_sessions_day_event_key_session_id_pk" PRIMARY KEY("day","event_key","session_id")
);
--> statement-breakpoint
CREATE TABLE "insights_archive_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"archived_before" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insights_archive_discovery_day_idx" ON "insights_archive_discovery" USING btree ("day");--> statement-breakpoint
CREATE INDEX "discovery_user_email_idx" ON "discovery_interactions" USING btree ("user_email") WHERE "discovery_interactions"."user_email" is not null;--> statement-breakpoint
CREATE INDEX "engagement_user_email_idx" ON "engagement_interactions" USING btree ("user_email") WHERE "engagement_interactions"."user_email" is not null;