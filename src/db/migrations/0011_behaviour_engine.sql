ALTER TABLE "engine_results" DROP CONSTRAINT "engine_results_engine_check";--> statement-breakpoint
ALTER TABLE "issues" DROP CONSTRAINT "issues_source_check";--> statement-breakpoint
ALTER TABLE "engine_results" ADD CONSTRAINT "engine_results_engine_check" CHECK ("engine_results"."engine" in ('axe', 'pa11y', 'ibm', 'checks', 'keyboard', 'behaviour'));--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_source_check" CHECK ("issues"."source" in ('axe', 'pa11y', 'ibm', 'checks', 'keyboard', 'behaviour'));