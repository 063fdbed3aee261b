-- Credential resolutions are cached per process for a few seconds (shared/identity/credential-cache.ts).
-- Whatever changes what a credential resolves to (a session or token revoked, expired or rotated, a user
-- deactivated, demoted or renamed, a custom role's scopes) announces it on the `credentials` channel at
-- commit, from the database itself, so every process drops its cache whichever path made the change:
-- a service verb, another instance, or an operator's SQL. Statement-level: one NOTIFY per statement,
-- and PostgreSQL folds identical ones within a transaction.
CREATE OR REPLACE FUNCTION "notify_credentials_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_credentials_changed" AFTER UPDATE OF "revoked_at", "expires_at", "user_id", "masquerade_by" OR DELETE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_credentials_changed"();
--> statement-breakpoint
CREATE TRIGGER "api_tokens_credentials_changed" AFTER UPDATE OF "revoked_at", "expires_at", "scopes", "token_hash", "prefix", "user_id" OR DELETE ON "api_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_credentials_changed"();
--> statement-breakpoint
CREATE TRIGGER "users_credentials_changed" AFTER UPDATE OF "role", "is_active", "email" OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_credentials_changed"();
--> statement-breakpoint
CREATE TRIGGER "custom_roles_credentials_changed" AFTER INSERT OR UPDATE OR DELETE ON "custom_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_credentials_changed"();
