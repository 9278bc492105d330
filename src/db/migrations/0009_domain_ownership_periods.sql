CREATE TABLE "domain_ownerships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain" text NOT NULL,
	"user_id" uuid NOT NULL,
	"verified_from" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_until" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "domains_monitored_domain_key";--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "claim_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "release_reason" text;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "ownership_id" uuid;--> statement-breakpoint
ALTER TABLE "domain_ownerships" ADD CONSTRAINT "domain_ownerships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_ownerships_user_id_idx" ON "domain_ownerships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "domain_ownerships_domain_idx" ON "domain_ownerships" USING btree ("domain","verified_from");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_ownerships_open_key" ON "domain_ownerships" USING btree ("domain") WHERE "domain_ownerships"."verified_until" is null;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_ownership_id_domain_ownerships_id_fk" FOREIGN KEY ("ownership_id") REFERENCES "public"."domain_ownerships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_verified_domain_key" ON "domains" USING btree ("domain") WHERE "domains"."status" in ('active', 'trial', 'grace_period') and "domains"."verified_at" is not null;--> statement-breakpoint
CREATE INDEX "domains_domain_idx" ON "domains" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "complaints_ownership_id_idx" ON "complaints" USING btree ("ownership_id");--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_release_reason_check" CHECK ("domains"."release_reason" in ('verified_elsewhere', 'claim_lapsed'));--> statement-breakpoint
-- Ownership periods (ADR 0007) follow the domains table: a period opens when one account's row
-- is monitored and verified, and closes when it stops being either or another account's row
-- takes the domain over. Complaints that arrived while nobody held the domain verified join the
-- next period that opens. A trigger, so every path that changes a domain (management, checkout,
-- the lifecycle sweep, verification, account deletion) keeps the periods true.
CREATE FUNCTION "sync_domain_ownership"("name" text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "holder" uuid;
  "opened" uuid;
BEGIN
  IF "name" IS NULL THEN
    RETURN;
  END IF;
  SELECT "user_id" INTO "holder" FROM "domains"
  WHERE "domain" = "name" AND "status" IN ('active', 'trial', 'grace_period')
    AND "verified_at" IS NOT NULL
  LIMIT 1;
  UPDATE "domain_ownerships" SET "verified_until" = now()
  WHERE "domain" = "name" AND "verified_until" IS NULL AND "user_id" IS DISTINCT FROM "holder";
  IF "holder" IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM "domain_ownerships" WHERE "domain" = "name" AND "verified_until" IS NULL
  ) THEN
    INSERT INTO "domain_ownerships" ("domain", "user_id") VALUES ("name", "holder")
    RETURNING "id" INTO "opened";
    UPDATE "complaints" SET "ownership_id" = "opened"
    WHERE "domain" = "name" AND "ownership_id" IS NULL;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "track_domain_ownership"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "sync_domain_ownership"(NEW."domain");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "sync_domain_ownership"(OLD."domain");
  ELSE
    PERFORM "sync_domain_ownership"(OLD."domain");
    IF NEW."domain" IS DISTINCT FROM OLD."domain" THEN
      PERFORM "sync_domain_ownership"(NEW."domain");
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The periods as they stand: an open one for each verified owner monitoring a domain, a closed
-- one for each verified row no longer monitored.
INSERT INTO "domain_ownerships" ("domain", "user_id", "verified_from", "verified_until")
SELECT "domain", "user_id", "verified_at",
  CASE WHEN "status" IN ('active', 'trial', 'grace_period') THEN NULL
    ELSE greatest("verified_at", coalesce("archived_at", "expired_at", "updated_at")) END
FROM "domains" WHERE "verified_at" IS NOT NULL;
--> statement-breakpoint
-- Each stored complaint joins the period that ran when it arrived (the latest to start before
-- it), else the domain's earliest period: complaints were filed only while a verified owner
-- published the domain, so one of its verified owners received it.
UPDATE "complaints" AS c SET "ownership_id" = coalesce(
  (SELECT o."id" FROM "domain_ownerships" o WHERE o."domain" = c."domain"
     AND o."verified_from" <= c."created_at" ORDER BY o."verified_from" DESC LIMIT 1),
  (SELECT o."id" FROM "domain_ownerships" o WHERE o."domain" = c."domain"
     ORDER BY o."verified_from" ASC LIMIT 1));
--> statement-breakpoint
CREATE TRIGGER "domains_ownership" AFTER INSERT OR DELETE OR UPDATE OF "domain", "user_id", "status", "verified_at" ON "domains"
FOR EACH ROW EXECUTE FUNCTION "track_domain_ownership"();
--> statement-breakpoint
-- A complaint filed while a period runs belongs to it, whichever code inserts it.
CREATE FUNCTION "complaint_ownership"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."ownership_id" IS NULL THEN
    SELECT "id" INTO NEW."ownership_id" FROM "domain_ownerships"
    WHERE "domain" = NEW."domain" AND "verified_until" IS NULL;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "complaints_ownership" BEFORE INSERT ON "complaints"
FOR EACH ROW EXECUTE FUNCTION "complaint_ownership"();
