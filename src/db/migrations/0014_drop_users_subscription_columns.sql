-- An organisation's subscription state lives in billing_accounts (migration 0013, ADR 0037); the
-- copies on users, no longer read or written, go. Invoice numbers are gapless per year under a
-- lock (ADR 0038), so the sequence made for them goes too.
ALTER TABLE "users" DROP COLUMN "stripe_customer_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "stripe_subscription_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "subscription_status";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trial_start_date";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trial_end_date";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "trial_used";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "card_added";--> statement-breakpoint
DROP SEQUENCE "public"."invoice_number_seq";