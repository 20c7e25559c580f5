DROP INDEX "paid_orders_token_idx";--> statement-breakpoint
ALTER TABLE "paid_orders" DROP COLUMN "partner_stats_token";