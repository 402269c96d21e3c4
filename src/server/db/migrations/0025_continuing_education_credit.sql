CREATE TABLE "course_evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"diploma_id" uuid,
	"answers" jsonb NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_evaluations_user_diploma_unique" UNIQUE("user_id","diploma_id")
);
--> statement-breakpoint
CREATE TABLE "credit_offers" (
	"diploma_id" uuid PRIMARY KEY NOT NULL,
	"hours" numeric(4, 1) NOT NULL,
	"category" text NOT NULL,
	"delivery_method" text NOT NULL,
	"bodies" jsonb NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"diploma_id" uuid,
	"certificate_id" uuid,
	"evaluation_id" uuid,
	"title" text NOT NULL,
	"holder_name" text NOT NULL,
	"licence_number" text DEFAULT '' NOT NULL,
	"hours" numeric(4, 1) NOT NULL,
	"category" text NOT NULL,
	"delivery_method" text NOT NULL,
	"bodies" jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"proof" jsonb NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	CONSTRAINT "credits_user_diploma_unique" UNIQUE("user_id","diploma_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "licence_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD CONSTRAINT "course_evaluations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD CONSTRAINT "course_evaluations_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_offers" ADD CONSTRAINT "credit_offers_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_evaluation_id_course_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."course_evaluations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_evaluations_diploma_id_idx" ON "course_evaluations" USING btree ("diploma_id","submitted_at");--> statement-breakpoint
CREATE INDEX "credits_diploma_id_idx" ON "credits" USING btree ("diploma_id","earned_at");