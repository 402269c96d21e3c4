CREATE TABLE "watched_time" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"procedure_id" uuid,
	"diploma_video_id" uuid,
	"duration_seconds" double precision NOT NULL,
	"spans" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"watched_seconds" double precision DEFAULT 0 NOT NULL,
	"last_viewing_token" text,
	"last_position_seconds" double precision,
	"last_saved_at" timestamp with time zone,
	"watched_at" timestamp with time zone,
	CONSTRAINT "watched_time_one_video" CHECK (num_nonnulls("watched_time"."procedure_id", "watched_time"."diploma_video_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "watched_time" ADD CONSTRAINT "watched_time_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watched_time" ADD CONSTRAINT "watched_time_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watched_time" ADD CONSTRAINT "watched_time_diploma_video_id_diploma_videos_id_fk" FOREIGN KEY ("diploma_video_id") REFERENCES "public"."diploma_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watched_time_user_procedure_idx" ON "watched_time" USING btree ("user_id","procedure_id");--> statement-breakpoint
CREATE UNIQUE INDEX "watched_time_user_diploma_video_idx" ON "watched_time" USING btree ("user_id","diploma_video_id");