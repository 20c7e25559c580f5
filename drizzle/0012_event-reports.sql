CREATE TABLE "event_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_key" text NOT NULL,
	"event_title" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"source_ip_hash" text,
	"event_ip_hash" text,
	"spam" boolean DEFAULT false NOT NULL,
	"spam_signals" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "event_reports_status_event_idx" ON "event_reports" USING btree ("status","event_key");--> statement-breakpoint
CREATE INDEX "event_reports_created_idx" ON "event_reports" USING btree ("created_at");