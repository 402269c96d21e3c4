CREATE TYPE "public"."caption_language" AS ENUM('es', 'en', 'pt');--> statement-breakpoint
CREATE TYPE "public"."caption_video" AS ENUM('demo', 'full');--> statement-breakpoint
CREATE TABLE "procedure_captions" (
	"procedure_id" uuid NOT NULL,
	"video" "caption_video" NOT NULL,
	"language" "caption_language" NOT NULL,
	"file_key" text NOT NULL,
	CONSTRAINT "procedure_captions_procedure_id_video_language_pk" PRIMARY KEY("procedure_id","video","language"),
	CONSTRAINT "procedure_captions_file_key_unique" UNIQUE("file_key")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_active_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "last_active_at" = "updated_at";--> statement-breakpoint
ALTER TABLE "viewing_tokens" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "procedure_captions" ADD CONSTRAINT "procedure_captions_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_tokens" ADD CONSTRAINT "viewing_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;