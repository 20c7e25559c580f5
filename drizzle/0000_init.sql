CREATE TABLE "event_store_backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"trigger" text NOT NULL,
	"row_count" integer NOT NULL,
	"featured_entry_count" integer DEFAULT 0 NOT NULL,
	"promoted_entry_count" integer DEFAULT 0 NOT NULL,
	"store_updated_at" timestamp with time zone,
	"store_checksum" text,
	"csv_content" text NOT NULL,
	"featured_entries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"promoted_entries" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_store_columns" (
	"key" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"is_core" boolean DEFAULT false NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"display_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_store_meta" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text DEFAULT 'system' NOT NULL,
	"origin" text DEFAULT 'manual' NOT NULL,
	"checksum" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_store_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"trigger" text NOT NULL,
	"actor" text DEFAULT 'system' NOT NULL,
	"row_count" integer NOT NULL,
	"column_count" integer NOT NULL,
	"rows_added" integer DEFAULT 0 NOT NULL,
	"rows_deleted" integer DEFAULT 0 NOT NULL,
	"rows_changed" integer DEFAULT 0 NOT NULL,
	"changed_columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"csv" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_store_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"display_order" integer NOT NULL,
	"row_data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kv_store" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "genre_preferences" (
	"email" text NOT NULL,
	"genre" text NOT NULL,
	"score" integer DEFAULT 1 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genre_preferences_email_genre_pk" PRIMARY KEY("email","genre")
);
--> statement-breakpoint
CREATE TABLE "user_verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"consent" boolean,
	"source" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"email" text PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"consent" boolean,
	"source" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verification_count" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_meta" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"token_version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_sessions" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"tv" integer NOT NULL,
	"iat" bigint NOT NULL,
	"exp" bigint NOT NULL,
	"ip" text DEFAULT 'unknown' NOT NULL,
	"ua" text DEFAULT '' NOT NULL,
	"revoked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"window_seconds" integer NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rate_limit_counters_scope_key_hash_window_seconds_pk" PRIMARY KEY("scope","key_hash","window_seconds")
);
--> statement-breakpoint
CREATE TABLE "discovery_interactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"action_type" text NOT NULL,
	"session_id" text,
	"user_email" text,
	"filter_group" text,
	"filter_value" text,
	"search_query" text,
	"path" text,
	"is_authenticated" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_interactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"action_type" text NOT NULL,
	"session_id" text,
	"source" text,
	"path" text,
	"is_authenticated" boolean DEFAULT false NOT NULL,
	"user_email" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payload" jsonb NOT NULL,
	"host_email" text NOT NULL,
	"source_ip_hash" text,
	"email_ip_hash" text,
	"fingerprint_hash" text,
	"spam_signals" jsonb,
	"review_reason" text,
	"review_note" text,
	"accepted_event_key" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paid_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"source_event_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"package_key" text,
	"payment_link_id" text,
	"checkout_session_id" text,
	"customer_email" text,
	"customer_name" text,
	"event_name" text,
	"event_url" text,
	"amount_total_cents" integer,
	"currency" text,
	"notes" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"raw_payload" jsonb,
	"fulfilled_event_key" text,
	"fulfilled_tier" text,
	"fulfilled_start_at" timestamp with time zone,
	"fulfilled_end_at" timestamp with time zone,
	"partner_stats_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promoted_schedule" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_key" text NOT NULL,
	"requested_start_at" timestamp with time zone NOT NULL,
	"effective_start_at" timestamp with time zone,
	"effective_end_at" timestamp with time zone,
	"duration_hours" integer DEFAULT 48 NOT NULL,
	"slot" integer,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spotlight_schedule" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_key" text NOT NULL,
	"requested_start_at" timestamp with time zone NOT NULL,
	"effective_start_at" timestamp with time zone,
	"effective_end_at" timestamp with time zone,
	"duration_hours" integer DEFAULT 48 NOT NULL,
	"slot" integer,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"created_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "event_store_backups_created_idx" ON "event_store_backups" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "event_store_revisions_created_idx" ON "event_store_revisions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "event_store_rows_order_idx" ON "event_store_rows" USING btree ("display_order");--> statement-breakpoint
CREATE INDEX "genre_preferences_genre_idx" ON "genre_preferences" USING btree ("genre");--> statement-breakpoint
CREATE INDEX "user_verifications_submitted_idx" ON "user_verifications" USING btree ("submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_last_seen_idx" ON "users" USING btree ("last_seen_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_sessions_exp_idx" ON "admin_sessions" USING btree ("exp");--> statement-breakpoint
CREATE INDEX "admin_sessions_iat_idx" ON "admin_sessions" USING btree ("iat" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rate_limit_counters_reset_idx" ON "rate_limit_counters" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "discovery_time_idx" ON "discovery_interactions" USING btree ("recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "discovery_action_time_idx" ON "discovery_interactions" USING btree ("action_type","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "discovery_session_idx" ON "discovery_interactions" USING btree ("session_id","recorded_at");--> statement-breakpoint
CREATE INDEX "engagement_event_time_idx" ON "engagement_interactions" USING btree ("event_key","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "engagement_action_time_idx" ON "engagement_interactions" USING btree ("action_type","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "engagement_time_idx" ON "engagement_interactions" USING btree ("recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "engagement_session_event_time_idx" ON "engagement_interactions" USING btree ("session_id","event_key","recorded_at");--> statement-breakpoint
CREATE INDEX "event_submissions_status_created_idx" ON "event_submissions" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "paid_orders_source_event_idx" ON "paid_orders" USING btree ("source_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "paid_orders_token_idx" ON "paid_orders" USING btree ("partner_stats_token");--> statement-breakpoint
CREATE INDEX "paid_orders_status_created_idx" ON "paid_orders" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "promoted_status_start_idx" ON "promoted_schedule" USING btree ("status","effective_start_at");--> statement-breakpoint
CREATE INDEX "promoted_event_idx" ON "promoted_schedule" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "spotlight_status_start_idx" ON "spotlight_schedule" USING btree ("status","effective_start_at");--> statement-breakpoint
CREATE INDEX "spotlight_event_idx" ON "spotlight_schedule" USING btree ("event_key");