CREATE TABLE "cve_sync_staging" (
	"cve_id" text PRIMARY KEY NOT NULL,
	"rejected" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"last_modified_at" timestamp with time zone NOT NULL,
	"vuln_status" text,
	"summary" text,
	"severity" text,
	"cvss_score" real,
	"cvss_vector" text,
	"configurations" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cve_sync_staging_matches" (
	"cve_id" text NOT NULL,
	"last_modified_at" timestamp with time zone NOT NULL,
	"config_index" integer NOT NULL,
	"node_index" integer NOT NULL,
	"criteria" text NOT NULL,
	"part" text NOT NULL,
	"vendor" text NOT NULL,
	"product" text NOT NULL,
	"version" text NOT NULL,
	"version_start_including" text,
	"version_start_excluding" text,
	"version_end_including" text,
	"version_end_excluding" text,
	"vulnerable" boolean NOT NULL
);
