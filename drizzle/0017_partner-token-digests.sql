ALTER TABLE "paid_orders" ADD COLUMN "partner_stats_token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "paid_orders_token_hash_idx" ON "paid_orders" USING btree ("partner_stats_token_hash");--> statement-breakpoint
-- Existing partner links keep working: their token is replaced by its SHA-256 (the next migration drops the readable column).
UPDATE "paid_orders" SET "partner_stats_token_hash" = encode(sha256(convert_to("partner_stats_token", 'UTF8')), 'hex') WHERE "partner_stats_token" IS NOT NULL;--> statement-breakpoint
-- Messages no longer waiting to be sent lose the private links they carried (edit link, statistics link); queued ones lose them when sent.
UPDATE "outbox_messages" SET "params" = ("params" - 'editUrl' - 'statsUrl') || '{"linkRemoved": true}'::jsonb WHERE "status" NOT IN ('queued', 'sending') AND ("params" ->> 'editUrl' IS NOT NULL OR "params" ->> 'statsUrl' IS NOT NULL);
