ALTER TABLE "scans" ADD COLUMN "raw_output" jsonb;--> statement-breakpoint
-- Every stored scan keeps its raw output: each engine's column becomes the entry under its id
-- (an engine without output gets no entry, as before it had a null column).
UPDATE "scans" SET "raw_output" =
  (CASE WHEN "axe_data" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('axe', "axe_data") END)
  || (CASE WHEN "pa11y_data" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('pa11y', "pa11y_data") END)
  || (CASE WHEN "ibm_data" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('ibm', "ibm_data") END)
WHERE "axe_data" IS NOT NULL OR "pa11y_data" IS NOT NULL OR "ibm_data" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" DROP COLUMN "axe_data";--> statement-breakpoint
ALTER TABLE "scans" DROP COLUMN "pa11y_data";--> statement-breakpoint
ALTER TABLE "scans" DROP COLUMN "ibm_data";
