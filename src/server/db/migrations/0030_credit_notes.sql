CREATE TABLE "payment_credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"refunded_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"invoice_id" text,
	"invoice_uuid" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_credit_notes_payment_total_key" UNIQUE("payment_id","refunded_cents")
);
--> statement-breakpoint
ALTER TABLE "payment_credit_notes" ADD CONSTRAINT "payment_credit_notes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;