CREATE TABLE "acme_challenges" (
	"token" text PRIMARY KEY NOT NULL,
	"key_authorization" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"type" text NOT NULL,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"acme_challenge" text,
	"acme_staging" boolean DEFAULT false NOT NULL,
	"cert_pem" text NOT NULL,
	"key_pem" text NOT NULL,
	"subject" text,
	"issuer" text,
	"san" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fingerprint_sha256" text,
	"not_before" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"last_renewed_at" timestamp with time zone,
	"renew_error" text,
	"warned_days" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "db_backups" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"filename" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"method" text NOT NULL,
	"verified_at" timestamp with time zone,
	"s3_key" text,
	"s3_uploaded_at" timestamp with time zone,
	"includes_vault_key" boolean DEFAULT false NOT NULL,
	"manifest" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_exchange_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"purpose" text DEFAULT 'login' NOT NULL,
	"nonce" text,
	"code_verifier" text,
	"redirect_uri" text NOT NULL,
	"invite_token" text,
	"link_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_exchange_codes" ADD CONSTRAINT "auth_exchange_codes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_identities" ADD CONSTRAINT "oauth_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_active_idx" ON "certificates" USING btree ("is_active") WHERE is_active;--> statement-breakpoint
CREATE INDEX "certificates_expiry_idx" ON "certificates" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "db_backups_filename_idx" ON "db_backups" USING btree ("filename");--> statement-breakpoint
CREATE INDEX "db_backups_created_idx" ON "db_backups" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_subject_idx" ON "oauth_identities" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "oauth_identities_user_idx" ON "oauth_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_states_expiry_idx" ON "oauth_states" USING btree ("expires_at");