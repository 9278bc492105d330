ALTER TABLE "scans" ADD COLUMN "origin" text DEFAULT 'request' NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "last_monitor_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_origin_check" CHECK ("scans"."origin" in ('request', 'monitoring'));