DROP INDEX "engagement_event_time_idx";--> statement-breakpoint
CREATE INDEX "engagement_event_time_cover_idx" ON "engagement_interactions" USING btree ("event_key","recorded_at","action_type","session_id");--> statement-breakpoint
CREATE INDEX "engagement_event_session_idx" ON "engagement_interactions" USING btree ("event_key","session_id","recorded_at","action_type");