CREATE TABLE "asset_identities" (
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"vendor" text,
	"product" text,
	"version" text,
	"provenance" text DEFAULT 'operator' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "asset_identities_entity_type_entity_id_pk" PRIMARY KEY("entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "cve_cpe_matches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cve_id" text NOT NULL,
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
--> statement-breakpoint
CREATE TABLE "cve_entries" (
	"cve_id" text PRIMARY KEY NOT NULL,
	"published_at" timestamp with time zone,
	"last_modified_at" timestamp with time zone NOT NULL,
	"vuln_status" text,
	"summary" text,
	"severity" text,
	"cvss_score" real,
	"cvss_vector" text,
	"configurations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_ignores" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" text NOT NULL,
	"hardware_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"score" integer NOT NULL,
	"grade" text NOT NULL,
	"critical_count" integer DEFAULT 0 NOT NULL,
	"warning_count" integer DEFAULT 0 NOT NULL,
	"info_count" integer DEFAULT 0 NOT NULL,
	"deductions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"scan_job_id" integer
);
--> statement-breakpoint
ALTER TABLE "cve_cpe_matches" ADD CONSTRAINT "cve_cpe_matches_cve_id_cve_entries_cve_id_fk" FOREIGN KEY ("cve_id") REFERENCES "public"."cve_entries"("cve_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_ignores" ADD CONSTRAINT "privacy_ignores_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asset_identities_product_idx" ON "asset_identities" USING btree ("vendor","product");--> statement-breakpoint
CREATE INDEX "cve_cpe_matches_product_idx" ON "cve_cpe_matches" USING btree ("vendor","product");--> statement-breakpoint
CREATE INDEX "cve_cpe_matches_cve_idx" ON "cve_cpe_matches" USING btree ("cve_id");--> statement-breakpoint
CREATE INDEX "cve_entries_modified_idx" ON "cve_entries" USING btree ("last_modified_at");--> statement-breakpoint
CREATE INDEX "cve_entries_severity_idx" ON "cve_entries" USING btree ("severity");--> statement-breakpoint
CREATE UNIQUE INDEX "privacy_ignores_rule_idx" ON "privacy_ignores" USING btree ("rule_id",coalesce("hardware_id", 0));--> statement-breakpoint
CREATE INDEX "privacy_snapshots_taken_idx" ON "privacy_snapshots" USING btree ("taken_at");