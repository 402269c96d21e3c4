ALTER TABLE "payment_subscriptions" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "payment_subscriptions" ADD COLUMN "currency" text;