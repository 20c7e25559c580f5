DROP INDEX "insights_event_sessions_last_idx";--> statement-breakpoint
CREATE INDEX "insights_event_sessions_last_event_idx" ON "insights_event_sessions" USING btree ("last_at","event_key");