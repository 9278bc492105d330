CREATE SEQUENCE "public"."invoice_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "billing_accounts" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"interval" text DEFAULT 'month' NOT NULL,
	"interval_changed_at" timestamp with time zone,
	"subscription_status" text DEFAULT 'inactive' NOT NULL,
	"trial_start_date" timestamp with time zone,
	"trial_end_date" timestamp with time zone,
	"trial_used" boolean DEFAULT false NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" integer,
	"card_exp_year" integer,
	"card_provider_id" text,
	"card_updated_at" timestamp with time zone,
	"legal_name" text,
	"billing_email" text,
	"address" text,
	"country" text,
	"tax_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_accounts_interval_check" CHECK ("billing_accounts"."interval" in ('month', 'year'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"organisation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payment_id" text,
	"credits_invoice_id" uuid,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"lines" jsonb NOT NULL,
	"seller" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"hosted_url" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('invoice', 'credit_note'))
);
--> statement-breakpoint
CREATE TABLE "issue_triage" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"issue_key" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"note" text,
	"reason" text,
	"accepted_until" timestamp with time zone,
	"assignee_id" uuid,
	"rule_key" text,
	"title" text,
	"impact" text,
	"last_seen_at" timestamp with time zone,
	"fixed_at" timestamp with time zone,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_triage_state_check" CHECK ("issue_triage"."state" in ('open', 'false_positive', 'accepted', 'fixed', 'reopened'))
);
--> statement-breakpoint
CREATE TABLE "issue_triage_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"triage_id" uuid NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"assignee_id" uuid,
	"note" text,
	"actor_id" uuid,
	"source_scan_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"issue_key" text NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"url" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_links_provider_check" CHECK ("tracker_links"."provider" in ('github'))
);
--> statement-breakpoint
CREATE TABLE "tracker_settings" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"github_api_url" text DEFAULT 'https://api.github.com' NOT NULL,
	"github_repo" text,
	"github_token_sealed" text,
	"webhook_url" text,
	"webhook_secret_sealed" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"event" text NOT NULL,
	"url" text NOT NULL,
	"status_code" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "pages_delivered" integer;--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage" ADD CONSTRAINT "issue_triage_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage" ADD CONSTRAINT "issue_triage_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage" ADD CONSTRAINT "issue_triage_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage_events" ADD CONSTRAINT "issue_triage_events_triage_id_issue_triage_id_fk" FOREIGN KEY ("triage_id") REFERENCES "public"."issue_triage"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage_events" ADD CONSTRAINT "issue_triage_events_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_triage_events" ADD CONSTRAINT "issue_triage_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_settings" ADD CONSTRAINT "tracker_settings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_settings" ADD CONSTRAINT "tracker_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE INDEX "invoices_organisation_id_idx" ON "invoices" USING btree ("organisation_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_payment_id_kind_key" ON "invoices" USING btree ("payment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "issue_triage_domain_issue_key" ON "issue_triage" USING btree ("domain_id","issue_key");--> statement-breakpoint
CREATE INDEX "issue_triage_assignee_idx" ON "issue_triage" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "issue_triage_events_triage_idx" ON "issue_triage_events" USING btree ("triage_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_links_domain_issue_provider_key" ON "tracker_links" USING btree ("domain_id","issue_key","provider");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_organisation_idx" ON "webhook_deliveries" USING btree ("organisation_id","created_at");--> statement-breakpoint
-- Every organisation has one billing account; the subscription state it held on its founder's
-- users row is copied over (personal organisations share their founder's id).
INSERT INTO "billing_accounts" ("organisation_id", "subscription_status", "trial_start_date", "trial_end_date", "trial_used", "stripe_customer_id", "stripe_subscription_id", "card_brand")
SELECT o."id", u."subscription_status", u."trial_start_date", u."trial_end_date", u."trial_used", u."stripe_customer_id", u."stripe_subscription_id", CASE WHEN u."card_added" THEN 'card' ELSE NULL END
FROM "organisations" o JOIN "users" u ON u."id" = o."id"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "billing_accounts" ("organisation_id")
SELECT o."id" FROM "organisations" o
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "create_billing_account"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "billing_accounts" ("organisation_id") VALUES (NEW."id") ON CONFLICT DO NOTHING;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "organisations_billing_account" AFTER INSERT ON "organisations"
FOR EACH ROW EXECUTE FUNCTION "create_billing_account"();
