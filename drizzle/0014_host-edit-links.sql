-- Foreign keys name their tables without a schema (hand-edited from the generated "public".…), so the
-- migration also applies inside the per-run schemas of the test suite on a Postgres server.
CREATE TABLE "host_change_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"changes" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"review_reason" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "host_edit_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "host_change_requests" ADD CONSTRAINT "host_change_requests_link_id_host_edit_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "host_edit_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_change_requests" ADD CONSTRAINT "host_change_requests_submission_id_event_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "event_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_edit_links" ADD CONSTRAINT "host_edit_links_submission_id_event_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "event_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "host_change_requests_status_created_idx" ON "host_change_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "host_change_requests_pending_idx" ON "host_change_requests" USING btree ("event_key") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "host_edit_links_submission_idx" ON "host_edit_links" USING btree ("submission_id");