CREATE TABLE "procedure_credit_offers" (
	"procedure_id" uuid PRIMARY KEY NOT NULL,
	"hours" numeric(4, 1) NOT NULL,
	"category" text NOT NULL,
	"delivery_method" text NOT NULL,
	"bodies" jsonb NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD COLUMN "procedure_id" uuid;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "procedure_id" uuid;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "folio" integer;--> statement-breakpoint
ALTER TABLE "credits" ADD COLUMN "verification_code" text;--> statement-breakpoint
ALTER TABLE "procedure_credit_offers" ADD CONSTRAINT "procedure_credit_offers_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD CONSTRAINT "course_evaluations_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_evaluations_procedure_id_idx" ON "course_evaluations" USING btree ("procedure_id","submitted_at");--> statement-breakpoint
CREATE INDEX "credits_procedure_id_idx" ON "credits" USING btree ("procedure_id","earned_at");--> statement-breakpoint
ALTER TABLE "course_evaluations" ADD CONSTRAINT "course_evaluations_user_procedure_unique" UNIQUE("user_id","procedure_id");--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_user_procedure_unique" UNIQUE("user_id","procedure_id");--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_procedure_folio_unique" UNIQUE("procedure_id","folio");--> statement-breakpoint
ALTER TABLE "credits" ADD CONSTRAINT "credits_verification_code_unique" UNIQUE("verification_code");