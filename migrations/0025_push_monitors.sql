ALTER TABLE "monitors" ADD COLUMN "push_token_hash" text;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "push_window_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "push_window_hits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "monitors_push_token_hash_idx" ON "monitors" USING btree ("push_token_hash") WHERE push_token_hash is not null;