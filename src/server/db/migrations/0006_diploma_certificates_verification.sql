ALTER TABLE "certificates" ADD COLUMN "verification_code" text DEFAULT upper(substr(md5(random()::text || clock_timestamp()::text), 1, 12)) NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "holder_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "issuer_name" text DEFAULT 'CxVet' NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "completed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "revoke_reason" text;--> statement-breakpoint
ALTER TABLE "exam_results" ADD COLUMN "correct_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_results" ADD COLUMN "question_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "diploma_transactions" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "diploma_transactions" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "diploma_transactions_user_id_idx" ON "diploma_transactions" USING btree ("user_id","diploma_id");--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_verification_code_unique" UNIQUE("verification_code");