CREATE TABLE "auth_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text,
	"ip" text,
	"user_agent" text,
	"event" text NOT NULL,
	"success" boolean NOT NULL,
	"user_id" uuid,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"csrf_secret" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"plan" text DEFAULT 'compliance_shield' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"subscription_status" text DEFAULT 'inactive' NOT NULL,
	"trial_start_date" timestamp with time zone,
	"trial_end_date" timestamp with time zone,
	"trial_used" boolean DEFAULT false NOT NULL,
	"card_added" boolean DEFAULT false NOT NULL,
	"verification_code_hash" text,
	"verification_code_expires_at" timestamp with time zone,
	"email_verified" boolean DEFAULT false NOT NULL,
	"password_reset_token_hash" text,
	"password_reset_token_expires_at" timestamp with time zone,
	"password_reset_code_hash" text,
	"password_reset_code_expires_at" timestamp with time zone,
	"password_reset_code_used" boolean DEFAULT false NOT NULL,
	"google_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"visitor_id" text,
	"requested_by_ip" text,
	"idempotency_key" text,
	"url" text NOT NULL,
	"domain" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"accessibility_score" integer,
	"score_label" text,
	"analysis_score" real DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"badge_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"ai_summary" text,
	"total_issues" integer DEFAULT 0 NOT NULL,
	"final_url" text,
	"title" text,
	"summary" jsonb,
	"engine_versions" jsonb,
	"processing_times" jsonb,
	"axe_data" jsonb,
	"pa11y_data" jsonb,
	"ibm_data" jsonb,
	"screenshots" text[] DEFAULT '{}'::text[] NOT NULL,
	"pdf_path" text,
	"vpat_path" text,
	"stage" text DEFAULT 'initializing' NOT NULL,
	"current_tool" text,
	"tool_progress" integer DEFAULT 0 NOT NULL,
	"overall_progress" integer DEFAULT 0 NOT NULL,
	"current_page" text,
	"logs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"engine_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"job_id" uuid,
	CONSTRAINT "scans_status_check" CHECK ("scans"."status" in ('pending', 'running', 'completed', 'failed', 'aborted')),
	CONSTRAINT "scans_stage_check" CHECK ("scans"."stage" in ('initializing', 'scanning', 'analyzing', 'complete', 'error', 'aborted')),
	CONSTRAINT "scans_overall_progress_check" CHECK ("scans"."overall_progress" between 0 and 100),
	CONSTRAINT "scans_tool_progress_check" CHECK ("scans"."tool_progress" between 0 and 100),
	CONSTRAINT "scans_accessibility_score_check" CHECK ("scans"."accessibility_score" is null or "scans"."accessibility_score" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "audit_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"visitor_id" text,
	"requested_by_ip" text,
	"idempotency_key" text,
	"base_url" text NOT NULL,
	"domain" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"total_pages" integer DEFAULT 0 NOT NULL,
	"completed_pages" integer DEFAULT 0 NOT NULL,
	"overall_score" integer,
	"total_issues" integer DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"ai_summary" text,
	"summary" jsonb,
	"error" text,
	"job_id" uuid,
	CONSTRAINT "audit_sessions_status_check" CHECK ("audit_sessions"."status" in ('pending', 'running', 'completed', 'failed', 'aborted'))
);
--> statement-breakpoint
CREATE TABLE "engine_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"page_scan_id" uuid NOT NULL,
	"engine" text NOT NULL,
	"raw_data" jsonb,
	"issue_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"warning_count" integer DEFAULT 0 NOT NULL,
	"notice_count" integer DEFAULT 0 NOT NULL,
	"processing_time" integer,
	"engine_version" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engine_results_engine_check" CHECK ("engine_results"."engine" in ('axe', 'pa11y', 'ibm'))
);
--> statement-breakpoint
CREATE TABLE "page_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"audit_session_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"url" text NOT NULL,
	"final_url" text,
	"title" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"accessibility_score" integer,
	"total_issues" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"screenshots" text[] DEFAULT '{}'::text[] NOT NULL,
	"processing_times" jsonb,
	"engine_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "page_scans_status_check" CHECK ("page_scans"."status" in ('pending', 'running', 'completed', 'failed', 'aborted'))
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scan_id" uuid,
	"page_scan_id" uuid,
	"issue_key" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"rule" text NOT NULL,
	"rule_key" text NOT NULL,
	"impact" text NOT NULL,
	"kind" text NOT NULL,
	"confidence" text NOT NULL,
	"wcag" text[] DEFAULT '{}'::text[] NOT NULL,
	"level" text,
	"selector" text NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"engines" text[] NOT NULL,
	"rules" jsonb NOT NULL,
	"help_url" text DEFAULT '' NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issues_one_owner_check" CHECK (("issues"."scan_id" is not null)::int + ("issues"."page_scan_id" is not null)::int = 1),
	CONSTRAINT "issues_impact_check" CHECK ("issues"."impact" in ('critical', 'serious', 'moderate', 'minor')),
	CONSTRAINT "issues_kind_check" CHECK ("issues"."kind" in ('violation', 'needs-review', 'best-practice')),
	CONSTRAINT "issues_confidence_check" CHECK ("issues"."confidence" in ('confirmed', 'likely', 'unconfirmed')),
	CONSTRAINT "issues_source_check" CHECK ("issues"."source" in ('axe', 'pa11y', 'ibm')),
	CONSTRAINT "issues_level_check" CHECK ("issues"."level" in ('A', 'AA', 'AAA'))
);
--> statement-breakpoint
CREATE TABLE "artifacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scan_id" uuid,
	"audit_session_id" uuid,
	"page_scan_id" uuid,
	"kind" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_name" text,
	"byte_size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artifacts_kind_check" CHECK ("artifacts"."kind" in ('screenshot', 'archive', 'report')),
	CONSTRAINT "artifacts_one_owner_check" CHECK (("artifacts"."scan_id" is not null)::int + ("artifacts"."audit_session_id" is not null)::int + ("artifacts"."page_scan_id" is not null)::int = 1),
	CONSTRAINT "artifacts_byte_size_check" CHECK ("artifacts"."byte_size" = octet_length("artifacts"."bytes"))
);
--> statement-breakpoint
CREATE TABLE "add_ons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"domain" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"price" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"description" text,
	"stripe_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"scan_id" uuid,
	"domain" text,
	"email" text,
	"company" text,
	"status" text DEFAULT 'active' NOT NULL,
	"plan_type" text DEFAULT 'compliance_shield' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"pdf_path" text,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"grace_period_end" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"user_id" uuid,
	"action" text NOT NULL,
	"status" text,
	"trial_used" boolean DEFAULT false NOT NULL,
	"subscription_id" uuid,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"subscription_id" uuid,
	"domain" text NOT NULL,
	"status" text DEFAULT 'trial' NOT NULL,
	"domain_index" integer NOT NULL,
	"monthly_price" integer NOT NULL,
	"trial_started_at" timestamp with time zone,
	"trial_ends_at" timestamp with time zone,
	"grace_period_ends_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"monitoring_since" timestamp with time zone,
	"last_scan_at" timestamp with time zone,
	"badge_active" boolean DEFAULT false NOT NULL,
	"badge_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "domains_status_check" CHECK ("domains"."status" in ('active', 'trial', 'grace_period', 'expired', 'archived')),
	CONSTRAINT "domains_domain_index_check" CHECK ("domains"."domain_index" >= 1),
	CONSTRAINT "domains_monthly_price_check" CHECK ("domains"."monthly_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"type" text DEFAULT 'general' NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"subject" text,
	"message" text NOT NULL,
	"submitter_email" text NOT NULL,
	"submitter_name" text,
	"priority" text DEFAULT 'medium' NOT NULL,
	"assigned_to" uuid,
	"internal_notes" text,
	"conversation" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "complaints_type_check" CHECK ("complaints"."type" in ('accessibility', 'technical', 'compliance', 'general')),
	CONSTRAINT "complaints_status_check" CHECK ("complaints"."status" in ('new', 'in_progress', 'resolved', 'closed')),
	CONSTRAINT "complaints_priority_check" CHECK ("complaints"."priority" in ('urgent', 'high', 'medium', 'low'))
);
--> statement-breakpoint
ALTER TABLE "auth_logs" ADD CONSTRAINT "auth_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD CONSTRAINT "audit_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_results" ADD CONSTRAINT "engine_results_page_scan_id_page_scans_id_fk" FOREIGN KEY ("page_scan_id") REFERENCES "public"."page_scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_scans" ADD CONSTRAINT "page_scans_audit_session_id_audit_sessions_id_fk" FOREIGN KEY ("audit_session_id") REFERENCES "public"."audit_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_page_scan_id_page_scans_id_fk" FOREIGN KEY ("page_scan_id") REFERENCES "public"."page_scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_audit_session_id_audit_sessions_id_fk" FOREIGN KEY ("audit_session_id") REFERENCES "public"."audit_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_page_scan_id_page_scans_id_fk" FOREIGN KEY ("page_scan_id") REFERENCES "public"."page_scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_history" ADD CONSTRAINT "domain_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_history" ADD CONSTRAINT "domain_history_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_logs_email_created_at_idx" ON "auth_logs" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "auth_logs_ip_created_at_idx" ON "auth_logs" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "auth_logs_user_id_idx" ON "auth_logs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_google_id_key" ON "users" USING btree ("google_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_password_reset_token_hash_key" ON "users" USING btree ("password_reset_token_hash");--> statement-breakpoint
CREATE INDEX "outbox_emails_unsent_idx" ON "outbox_emails" USING btree ("created_at") WHERE "outbox_emails"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_emails_to_idx" ON "outbox_emails" USING btree ("to");--> statement-breakpoint
CREATE UNIQUE INDEX "scans_idempotency_key_key" ON "scans" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "scans_user_id_created_at_idx" ON "scans" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "scans_visitor_id_created_at_idx" ON "scans" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "scans_domain_created_at_idx" ON "scans" USING btree ("domain","created_at");--> statement-breakpoint
CREATE INDEX "scans_status_idx" ON "scans" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_sessions_idempotency_key_key" ON "audit_sessions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "audit_sessions_user_id_created_at_idx" ON "audit_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_sessions_visitor_id_created_at_idx" ON "audit_sessions" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_sessions_domain_idx" ON "audit_sessions" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "engine_results_page_scan_id_engine_key" ON "engine_results" USING btree ("page_scan_id","engine");--> statement-breakpoint
CREATE UNIQUE INDEX "page_scans_audit_session_id_position_key" ON "page_scans" USING btree ("audit_session_id","position");--> statement-breakpoint
CREATE INDEX "issues_scan_id_impact_idx" ON "issues" USING btree ("scan_id","impact");--> statement-breakpoint
CREATE INDEX "issues_page_scan_id_idx" ON "issues" USING btree ("page_scan_id");--> statement-breakpoint
CREATE INDEX "issues_rule_key_idx" ON "issues" USING btree ("rule_key");--> statement-breakpoint
CREATE INDEX "artifacts_scan_id_idx" ON "artifacts" USING btree ("scan_id");--> statement-breakpoint
CREATE INDEX "artifacts_audit_session_id_idx" ON "artifacts" USING btree ("audit_session_id");--> statement-breakpoint
CREATE INDEX "artifacts_page_scan_id_idx" ON "artifacts" USING btree ("page_scan_id");--> statement-breakpoint
CREATE INDEX "add_ons_user_id_domain_idx" ON "add_ons" USING btree ("user_id","domain");--> statement-breakpoint
CREATE INDEX "subscriptions_user_id_idx" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_stripe_subscription_id_idx" ON "subscriptions" USING btree ("stripe_subscription_id");--> statement-breakpoint
CREATE INDEX "domain_history_domain_created_at_idx" ON "domain_history" USING btree ("domain","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_user_id_domain_key" ON "domains" USING btree ("user_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_monitored_domain_key" ON "domains" USING btree ("domain") WHERE "domains"."status" in ('active', 'trial', 'grace_period');--> statement-breakpoint
CREATE INDEX "domains_status_idx" ON "domains" USING btree ("status");--> statement-breakpoint
CREATE INDEX "complaints_domain_created_at_idx" ON "complaints" USING btree ("domain","created_at");--> statement-breakpoint
CREATE INDEX "complaints_status_idx" ON "complaints" USING btree ("status");