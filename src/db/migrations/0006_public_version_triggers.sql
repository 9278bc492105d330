-- Moves a domain's public_versions row whenever something its public answers (status page, audit
-- page, badge) show changes: its enrolment, its scans, its complaints, and notifies channel
-- public_versions with the domain name. The new version comes from
-- the table's own sequence (the insert's default, read back as excluded.version), so no sequence
-- or schema is named here and an isolated test schema works the same. Unqualified names resolve
-- through the session's search_path, as every other query of ours does.
CREATE FUNCTION "bump_public_version"("name" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF "name" IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO "public_versions" ("domain") VALUES ("name")
  ON CONFLICT ("domain") DO UPDATE
    SET "version" = excluded."version", "changed_at" = excluded."changed_at";
  -- Servers that keep versions in memory drop this domain's once the change commits.
  PERFORM pg_notify('public_versions', "name");
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "touch_public_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "bump_public_version"(NEW."domain");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "bump_public_version"(OLD."domain");
  ELSE
    PERFORM "bump_public_version"(OLD."domain");
    IF NEW."domain" IS DISTINCT FROM OLD."domain" THEN
      PERFORM "bump_public_version"(NEW."domain");
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Only the columns a public answer reads or gates on: the monitoring sweep's bookkeeping
-- (last_monitor_queued_at, verification_checked_at, ...) leaves cached answers valid. A column the
-- public answers start showing joins this list in a new migration.
CREATE TRIGGER "domains_public_version_update" AFTER UPDATE ON "domains" FOR EACH ROW
WHEN (
  OLD."domain" IS DISTINCT FROM NEW."domain"
  OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
  OR OLD."status" IS DISTINCT FROM NEW."status"
  OR OLD."monitoring_since" IS DISTINCT FROM NEW."monitoring_since"
  OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
  OR OLD."verified_at" IS DISTINCT FROM NEW."verified_at"
  OR OLD."badge_active" IS DISTINCT FROM NEW."badge_active"
  OR OLD."badge_settings" IS DISTINCT FROM NEW."badge_settings"
)
EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
CREATE TRIGGER "domains_public_version_insert_delete" AFTER INSERT OR DELETE ON "domains"
FOR EACH ROW EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
-- A running scan writes its progress many times; only what the public answers show moves the
-- version.
CREATE TRIGGER "scans_public_version_update" AFTER UPDATE ON "scans" FOR EACH ROW
WHEN (
  OLD."domain" IS DISTINCT FROM NEW."domain"
  OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
  OR OLD."status" IS DISTINCT FROM NEW."status"
  OR OLD."accessibility_score" IS DISTINCT FROM NEW."accessibility_score"
  OR OLD."total_issues" IS DISTINCT FROM NEW."total_issues"
  OR OLD."completed_at" IS DISTINCT FROM NEW."completed_at"
  OR OLD."ai_summary" IS DISTINCT FROM NEW."ai_summary"
  OR OLD."is_public" IS DISTINCT FROM NEW."is_public"
  OR OLD."url" IS DISTINCT FROM NEW."url"
  OR OLD."origin" IS DISTINCT FROM NEW."origin"
)
EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
CREATE TRIGGER "scans_public_version_insert_delete" AFTER INSERT OR DELETE ON "scans"
FOR EACH ROW EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
CREATE TRIGGER "complaints_public_version" AFTER INSERT OR UPDATE OR DELETE ON "complaints"
FOR EACH ROW EXECUTE FUNCTION "touch_public_version"();
--> statement-breakpoint
-- A scan the owner subscribed from speaks for the owner (listOwnerScans), so a subscription that
-- gains, loses or changes its scan moves the version of that scan's domain.
CREATE FUNCTION "touch_public_version_of_subscribed_scan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."scan_id" IS NOT NULL THEN
    PERFORM "bump_public_version"((SELECT "domain" FROM "scans" WHERE "id" = OLD."scan_id"));
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."scan_id" IS NOT NULL THEN
    PERFORM "bump_public_version"((SELECT "domain" FROM "scans" WHERE "id" = NEW."scan_id"));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_public_version_update" AFTER UPDATE ON "subscriptions" FOR EACH ROW
WHEN (
  OLD."scan_id" IS DISTINCT FROM NEW."scan_id"
  OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
)
EXECUTE FUNCTION "touch_public_version_of_subscribed_scan"();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_public_version_insert_delete" AFTER INSERT OR DELETE ON "subscriptions"
FOR EACH ROW EXECUTE FUNCTION "touch_public_version_of_subscribed_scan"();
