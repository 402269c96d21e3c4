ALTER TABLE "payment_subscriptions" ADD COLUMN "next_billing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_webhook_events" ADD COLUMN "transmission_id" text;--> statement-breakpoint
ALTER TABLE "payment_webhook_events" ADD CONSTRAINT "payment_webhook_events_transmission_id_unique" UNIQUE("transmission_id");