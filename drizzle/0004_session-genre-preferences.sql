CREATE TABLE "session_genre_preferences" (
	"session_id" text NOT NULL,
	"genre" text NOT NULL,
	"email" text NOT NULL,
	"score" integer DEFAULT 1 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_genre_preferences_session_id_genre_pk" PRIMARY KEY("session_id","genre")
);
--> statement-breakpoint
CREATE INDEX "session_genre_preferences_email_idx" ON "session_genre_preferences" USING btree ("email");--> statement-breakpoint
CREATE INDEX "session_genre_preferences_seen_idx" ON "session_genre_preferences" USING btree ("last_seen_at");