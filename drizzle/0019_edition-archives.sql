CREATE TABLE "edition_archives" (
	"year" integer PRIMARY KEY NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	"archived_by" text NOT NULL,
	"row_count" integer NOT NULL,
	"sheet" text NOT NULL,
	"row_states" text DEFAULT '{}' NOT NULL
);
