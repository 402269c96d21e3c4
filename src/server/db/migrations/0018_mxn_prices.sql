ALTER TYPE "public"."payment_provider" ADD VALUE 'mercadopago';--> statement-breakpoint
CREATE TABLE "plan_prices" (
	"plan" "plan" NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_prices_plan_currency_pk" PRIMARY KEY("plan","currency")
);
--> statement-breakpoint
ALTER TABLE "diplomas" ADD COLUMN "cost_mxn_cents" integer;