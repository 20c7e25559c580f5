ALTER TABLE "event_store_rows" ADD COLUMN "created_revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_store_rows" ADD COLUMN "revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_store_rows" ADD COLUMN "cell_revisions" jsonb DEFAULT '{}'::jsonb NOT NULL;