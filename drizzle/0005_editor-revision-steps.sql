ALTER TABLE "event_store_revisions" ALTER COLUMN "csv" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "event_store_revisions" ADD COLUMN "sheet" text;--> statement-breakpoint
ALTER TABLE "event_store_revisions" ADD COLUMN "changes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_store_revisions" ADD COLUMN "base_revision" bigint;--> statement-breakpoint
ALTER TABLE "event_store_revisions" ADD COLUMN "store_revision" bigint;--> statement-breakpoint
CREATE INDEX "event_store_revisions_store_revision_idx" ON "event_store_revisions" USING btree ("store_revision");