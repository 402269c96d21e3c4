CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
CREATE INDEX "rate_counters_window_started_at_idx" ON "rate_counters" USING btree ("window_started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_dedupe_key_idx" ON "analytics_events" USING btree ("dedupe_key");