CREATE TABLE "write_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "write_batches_applied_idx" ON "write_batches" USING btree ("applied_at");