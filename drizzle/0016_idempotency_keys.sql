ALTER TABLE "event_submissions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "event_submissions" ADD COLUMN "request_digest" text;--> statement-breakpoint
ALTER TABLE "event_reports" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "event_reports" ADD COLUMN "request_digest" text;--> statement-breakpoint
CREATE UNIQUE INDEX "event_submissions_idempotency_key_idx" ON "event_submissions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "event_reports_idempotency_key_idx" ON "event_reports" USING btree ("idempotency_key");