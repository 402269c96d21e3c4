ALTER TYPE "public"."payment_result" ADD VALUE 'PENDIENTE';--> statement-breakpoint
ALTER TYPE "public"."payment_result" ADD VALUE 'REEMBOLSO_PARCIAL';--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_order_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"description" text NOT NULL,
	"reference" text,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"capture_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_orders_provider_order_id_unique" UNIQUE("provider_order_id")
);
--> statement-breakpoint
CREATE TABLE "simulated_provider_records" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_subscriptions" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_orders_user_id_idx" ON "payment_orders" USING btree ("user_id");--> statement-breakpoint
-- older checkouts an account left pending are superseded by its newest one (no row is lost)
UPDATE "payment_subscriptions" SET "superseded_at" = now() WHERE "id" IN (SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at" DESC) AS "n" FROM "payment_subscriptions" WHERE "state" = 'PENDIENTE') AS "ranked" WHERE "n" > 1);--> statement-breakpoint
CREATE UNIQUE INDEX "payment_subscriptions_one_pending_idx" ON "payment_subscriptions" USING btree ("user_id") WHERE "payment_subscriptions"."state" = 'PENDIENTE' and "payment_subscriptions"."superseded_at" is null;