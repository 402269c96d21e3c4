CREATE TABLE "fiscal_profiles" (
	"user_id" text PRIMARY KEY NOT NULL,
	"rfc" text NOT NULL,
	"legal_name" text NOT NULL,
	"tax_system" text NOT NULL,
	"cfdi_use" text NOT NULL,
	"zip" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_invoices" (
	"month" text PRIMARY KEY NOT NULL,
	"invoice_id" text,
	"invoice_uuid" text,
	"total_cents" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_facturas" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"payment_form" text NOT NULL,
	"receipt_id" text,
	"receipt_key" text,
	"self_invoice_url" text,
	"invoice_request" jsonb,
	"invoice_requested_at" timestamp with time zone,
	"invoice_id" text,
	"invoice_uuid" text,
	"invoice_rfc" text,
	"invoice_status" text,
	"cancellation_motive" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fiscal_profiles" ADD CONSTRAINT "fiscal_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_facturas" ADD CONSTRAINT "payment_facturas_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;