CREATE TABLE "cve_feed_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"newest_modified_at" timestamp with time zone,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"coverage_complete" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_counts" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cve_notified" (
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"cve_id" text NOT NULL,
	"notified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cve_notified_entity_type_entity_id_cve_id_pk" PRIMARY KEY("entity_type","entity_id","cve_id")
);
--> statement-breakpoint
CREATE INDEX "cve_entries_published_idx" ON "cve_entries" USING btree ("published_at" DESC NULLS LAST,"cve_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cve_entries_summary_trgm_idx" ON "cve_entries" USING gin (lower("summary") gin_trgm_ops);