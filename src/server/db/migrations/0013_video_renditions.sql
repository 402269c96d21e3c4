CREATE TABLE "video_renditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"working_version" text,
	"ready_version" text,
	"heights" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segment_count" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_renditions_source_key_unique" UNIQUE("source_key")
);
