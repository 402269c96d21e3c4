CREATE TYPE "public"."account_type" AS ENUM('Gratis', 'Premium', 'Legacy', 'Admin');--> statement-breakpoint
CREATE TYPE "public"."analytics_category" AS ENUM('VIDEOS', 'FASCICULOS', 'DIPLOMADO_PREVIEW_PAGE');--> statement-breakpoint
CREATE TYPE "public"."classroom_access_type" AS ENUM('Acceso libre', 'Acceso controlado');--> statement-breakpoint
CREATE TYPE "public"."classroom_warning_kind" AS ENUM('DIEZ_DIAS', 'TRES_DIAS');--> statement-breakpoint
CREATE TYPE "public"."event_status" AS ENUM('Activo', 'Inactivo');--> statement-breakpoint
CREATE TYPE "public"."organization_type" AS ENUM('Empresa', 'Universidad');--> statement-breakpoint
CREATE TYPE "public"."payment_kind" AS ENUM('subscription', 'order');--> statement-breakpoint
CREATE TYPE "public"."payment_provider" AS ENUM('simulado', 'paypal', 'manual');--> statement-breakpoint
CREATE TYPE "public"."payment_result" AS ENUM('COMPLETADO', 'FALLIDO', 'REEMBOLSADO');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('BIEN', 'POR_TERMINAR', 'CANCELLED', 'FALLIDO');--> statement-breakpoint
CREATE TYPE "public"."plan" AS ENUM('monthly', 'annual');--> statement-breakpoint
CREATE TYPE "public"."procedure_type" AS ENUM('Gratis', 'Premium');--> statement-breakpoint
CREATE TYPE "public"."species" AS ENUM('Perro', 'Gato', 'Otras especies');--> statement-breakpoint
CREATE TYPE "public"."subscription_state" AS ENUM('PENDIENTE', 'ACTIVA', 'CANCELADA', 'SUSPENDIDA', 'EXPIRADA');--> statement-breakpoint
CREATE TYPE "public"."text_color" AS ENUM('Blanco', 'Negro');--> statement-breakpoint
CREATE TABLE "auth_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"email" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "public_universities" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limits_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" "account_type" DEFAULT 'Gratis' NOT NULL,
	"payment_status" "payment_status" DEFAULT 'BIEN' NOT NULL,
	"annual_plan" boolean DEFAULT false NOT NULL,
	"payment_day" timestamp with time zone,
	"subscription_id" text,
	"termination_date" timestamp with time zone,
	"country" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"promo_mail" boolean DEFAULT false NOT NULL,
	"news_mail" boolean DEFAULT false NOT NULL,
	"organization_id" uuid,
	"home_university" text,
	"user_number" integer GENERATED ALWAYS AS IDENTITY (sequence name "users_user_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"is_disabled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"type" "organization_type" NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"logo_image" text,
	"promo_image" text,
	"promo_link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "procedure_chapters" (
	"procedure_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"time_seconds" integer NOT NULL,
	CONSTRAINT "procedure_chapters_procedure_id_position_pk" PRIMARY KEY("procedure_id","position")
);
--> statement-breakpoint
CREATE TABLE "procedure_tags" (
	"procedure_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	CONSTRAINT "procedure_tags_procedure_id_tag_id_pk" PRIMARY KEY("procedure_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "procedures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"detail" text NOT NULL,
	"type" "procedure_type" DEFAULT 'Gratis' NOT NULL,
	"species" "species" NOT NULL,
	"meta" text DEFAULT '' NOT NULL,
	"preview_image" text,
	"demo_video" text,
	"full_video" text,
	"guide_pdf" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tags_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"display_date" text NOT NULL,
	"sort_date" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"detail_html" text NOT NULL,
	"status" "event_status" DEFAULT 'Activo' NOT NULL,
	"image" text,
	"pdf" text,
	"program_pdf" text,
	"promo_video_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "landing_slides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"media" text NOT NULL,
	"is_video" boolean DEFAULT false NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"text_color" text_color DEFAULT 'Blanco' NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"slide_seconds" integer DEFAULT 5 NOT NULL,
	"newsletter_image" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_single_row" CHECK ("site_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "classroom_procedures" (
	"classroom_id" uuid NOT NULL,
	"procedure_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "classroom_procedures_classroom_id_procedure_id_pk" PRIMARY KEY("classroom_id","procedure_id")
);
--> statement-breakpoint
CREATE TABLE "classroom_users" (
	"classroom_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "classroom_users_classroom_id_user_id_pk" PRIMARY KEY("classroom_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "classroom_warnings" (
	"classroom_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" "classroom_warning_kind" NOT NULL,
	"warned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classroom_warnings_classroom_id_user_id_kind_pk" PRIMARY KEY("classroom_id","user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "classrooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"access_type" "classroom_access_type" NOT NULL,
	"organization_type" "organization_type" NOT NULL,
	"organization_id" uuid NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"admin_user_id" text,
	"preview_image" text,
	"preview_pdf" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"diploma_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"diploma_title" text NOT NULL,
	"folio" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_diploma_user_unique" UNIQUE("diploma_id","user_id"),
	CONSTRAINT "certificates_diploma_folio_unique" UNIQUE("diploma_id","folio")
);
--> statement-breakpoint
CREATE TABLE "diploma_users" (
	"diploma_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"began_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"certificate_at" timestamp with time zone,
	CONSTRAINT "diploma_users_diploma_id_user_id_pk" PRIMARY KEY("diploma_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "diploma_video_chapters" (
	"video_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"time_seconds" integer NOT NULL,
	CONSTRAINT "diploma_video_chapters_video_id_position_pk" PRIMARY KEY("video_id","position")
);
--> statement-breakpoint
CREATE TABLE "diploma_video_completions" (
	"video_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diploma_video_completions_video_id_user_id_pk" PRIMARY KEY("video_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "diploma_video_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"file" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diploma_videos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"diploma_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"procedure_id" uuid,
	"title" text,
	"description" text,
	"video" text,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diplomas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"preview_image" text,
	"preview_pdf" text,
	"certificate_image" text,
	"cost_cents" integer DEFAULT 0 NOT NULL,
	"is_external" boolean DEFAULT false NOT NULL,
	"organization_id" uuid,
	"admin_user_id" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"pass_threshold_percent" integer DEFAULT 80 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_answers" (
	"question_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"answer" integer NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exam_answers_question_id_user_id_pk" PRIMARY KEY("question_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "exam_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exam_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"answers" jsonb NOT NULL,
	"correct_answer" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_results" (
	"exam_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"score_percent" numeric(5, 2) NOT NULL,
	"passed" boolean NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exam_results_exam_id_user_id_pk" PRIMARY KEY("exam_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"diploma_id" uuid NOT NULL,
	"title" text NOT NULL,
	"after_video_position" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diploma_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"diploma_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_order_id" text,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"data" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diploma_transactions_provider_order_id_unique" UNIQUE("provider_order_id")
);
--> statement-breakpoint
CREATE TABLE "payment_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"plan" "plan" NOT NULL,
	"state" "subscription_state" DEFAULT 'PENDIENTE' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_subscriptions_provider_subscription_id_unique" UNIQUE("provider_subscription_id")
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_payment_id" text NOT NULL,
	"kind" "payment_kind" NOT NULL,
	"result" "payment_result" NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_provider_payment_id_unique" UNIQUE("provider_payment_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_mail_deliveries" (
	"bulk_mail_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "bulk_mail_deliveries_bulk_mail_id_user_id_pk" PRIMARY KEY("bulk_mail_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"image" text,
	"created_by" text,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requested_by" text,
	"row_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"category" "analytics_category" NOT NULL,
	"label" text NOT NULL,
	"user_type" text NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"done_at" timestamp with time zone,
	"unique_key" text,
	CONSTRAINT "jobs_unique_key_unique" UNIQUE("unique_key")
);
--> statement-breakpoint
CREATE TABLE "viewing_tokens" (
	"user_id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_chapters" ADD CONSTRAINT "procedure_chapters_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_tags" ADD CONSTRAINT "procedure_tags_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_tags" ADD CONSTRAINT "procedure_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_procedures" ADD CONSTRAINT "classroom_procedures_classroom_id_classrooms_id_fk" FOREIGN KEY ("classroom_id") REFERENCES "public"."classrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_procedures" ADD CONSTRAINT "classroom_procedures_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_users" ADD CONSTRAINT "classroom_users_classroom_id_classrooms_id_fk" FOREIGN KEY ("classroom_id") REFERENCES "public"."classrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_users" ADD CONSTRAINT "classroom_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_warnings" ADD CONSTRAINT "classroom_warnings_classroom_id_classrooms_id_fk" FOREIGN KEY ("classroom_id") REFERENCES "public"."classrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_warnings" ADD CONSTRAINT "classroom_warnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classrooms" ADD CONSTRAINT "classrooms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classrooms" ADD CONSTRAINT "classrooms_admin_user_id_users_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_users" ADD CONSTRAINT "diploma_users_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_users" ADD CONSTRAINT "diploma_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_video_chapters" ADD CONSTRAINT "diploma_video_chapters_video_id_diploma_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."diploma_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_video_completions" ADD CONSTRAINT "diploma_video_completions_video_id_diploma_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."diploma_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_video_completions" ADD CONSTRAINT "diploma_video_completions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_video_files" ADD CONSTRAINT "diploma_video_files_video_id_diploma_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."diploma_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_videos" ADD CONSTRAINT "diploma_videos_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_videos" ADD CONSTRAINT "diploma_videos_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diplomas" ADD CONSTRAINT "diplomas_admin_user_id_users_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_question_id_exam_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."exam_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_answers" ADD CONSTRAINT "exam_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_questions" ADD CONSTRAINT "exam_questions_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_results" ADD CONSTRAINT "exam_results_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_results" ADD CONSTRAINT "exam_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_transactions" ADD CONSTRAINT "diploma_transactions_diploma_id_diplomas_id_fk" FOREIGN KEY ("diploma_id") REFERENCES "public"."diplomas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diploma_transactions" ADD CONSTRAINT "diploma_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_subscriptions" ADD CONSTRAINT "payment_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_mail_deliveries" ADD CONSTRAINT "bulk_mail_deliveries_bulk_mail_id_bulk_mails_id_fk" FOREIGN KEY ("bulk_mail_id") REFERENCES "public"."bulk_mails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_mail_deliveries" ADD CONSTRAINT "bulk_mail_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_mails" ADD CONSTRAINT "bulk_mails_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewing_tokens" ADD CONSTRAINT "viewing_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_accounts_user_id_idx" ON "auth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_type_idx" ON "users" USING btree ("type");--> statement-breakpoint
CREATE INDEX "users_subscription_id_idx" ON "users" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_lower_name_idx" ON "users" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "users_promo_mail_idx" ON "users" USING btree ("promo_mail") WHERE "users"."promo_mail";--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "procedure_tags_tag_id_idx" ON "procedure_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "procedures_created_at_idx" ON "procedures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "procedures_species_idx" ON "procedures" USING btree ("species");--> statement-breakpoint
CREATE INDEX "procedures_type_idx" ON "procedures" USING btree ("type");--> statement-breakpoint
CREATE INDEX "events_status_sort_date_idx" ON "events" USING btree ("status","sort_date");--> statement-breakpoint
CREATE INDEX "classroom_procedures_procedure_id_idx" ON "classroom_procedures" USING btree ("procedure_id");--> statement-breakpoint
CREATE INDEX "classroom_users_user_id_idx" ON "classroom_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "classrooms_admin_user_id_idx" ON "classrooms" USING btree ("admin_user_id");--> statement-breakpoint
CREATE INDEX "certificates_user_id_idx" ON "certificates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "diploma_users_user_id_idx" ON "diploma_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "diploma_videos_diploma_id_idx" ON "diploma_videos" USING btree ("diploma_id","position");--> statement-breakpoint
CREATE INDEX "diplomas_admin_user_id_idx" ON "diplomas" USING btree ("admin_user_id");--> statement-breakpoint
CREATE INDEX "exam_questions_exam_id_idx" ON "exam_questions" USING btree ("exam_id","position");--> statement-breakpoint
CREATE INDEX "exams_diploma_id_idx" ON "exams" USING btree ("diploma_id");--> statement-breakpoint
CREATE INDEX "diploma_transactions_diploma_id_idx" ON "diploma_transactions" USING btree ("diploma_id");--> statement-breakpoint
CREATE INDEX "payment_subscriptions_user_id_idx" ON "payment_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_user_id_idx" ON "payments" USING btree ("user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_to_idx" ON "mail_outbox" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "analytics_events_category_created_at_idx" ON "analytics_events" USING btree ("category","created_at");--> statement-breakpoint
CREATE INDEX "jobs_pending_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."done_at" is null;