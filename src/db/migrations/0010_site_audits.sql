ALTER TABLE "audit_sessions" ADD COLUMN "origin" text DEFAULT 'request' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "domain_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "trigger" text;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "discovery" jsonb;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "previous_audit_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "failed_pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD COLUMN "reused_pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "normalized_url" text;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "render_hash" text;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "engine_versions" jsonb;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "reused_from" uuid;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "page_scans" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "start_url" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "monitor_pins" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "monitor_excludes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "audit_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD CONSTRAINT "audit_sessions_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_sessions_domain_id_unfinished_key" ON "audit_sessions" USING btree ("domain_id") WHERE "audit_sessions"."origin" = 'monitoring' and "audit_sessions"."status" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "audit_sessions_domain_id_completed_at_idx" ON "audit_sessions" USING btree ("domain_id","completed_at");--> statement-breakpoint
CREATE INDEX "page_scans_audit_session_id_status_idx" ON "page_scans" USING btree ("audit_session_id","status");--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD CONSTRAINT "audit_sessions_origin_check" CHECK ("audit_sessions"."origin" in ('request', 'monitoring'));--> statement-breakpoint
ALTER TABLE "audit_sessions" ADD CONSTRAINT "audit_sessions_trigger_check" CHECK ("audit_sessions"."trigger" in ('schedule', 'added', 'scan-now'));--> statement-breakpoint
-- A domain's standing is its latest finished site audit (docs/scoring.md), so a monitoring audit
-- that starts, ends or is rescored moves the domain's public version (migration 0006): cached
-- status pages, audit pages and badges are not served stale once it ends.
CREATE TRIGGER "audit_sessions_public_version_update" AFTER UPDATE ON "audit_sessions" FOR EACH ROW
WHEN (
  NEW."origin" = 'monitoring' AND (
    OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."overall_score" IS DISTINCT FROM NEW."overall_score"
    OR OLD."completed_at" IS DISTINCT FROM NEW."completed_at"
    OR OLD."total_issues" IS DISTINCT FROM NEW."total_issues"
    OR OLD."completed_pages" IS DISTINCT FROM NEW."completed_pages"
  )
)
EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
CREATE TRIGGER "audit_sessions_public_version_insert_delete" AFTER INSERT OR DELETE ON "audit_sessions"
FOR EACH ROW EXECUTE FUNCTION "touch_public_version"();
