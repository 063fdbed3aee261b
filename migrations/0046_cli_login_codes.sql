CREATE TABLE "cli_login_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"client_name" text NOT NULL,
	"label" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"token_expires_at" timestamp with time zone,
	"code_challenge" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"token_id" integer
);
--> statement-breakpoint
ALTER TABLE "cli_login_codes" ADD CONSTRAINT "cli_login_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cli_login_codes" ADD CONSTRAINT "cli_login_codes_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cli_login_codes_hash_idx" ON "cli_login_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "cli_login_codes_expiry_idx" ON "cli_login_codes" USING btree ("expires_at");