CREATE TABLE "custom_field_definitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"kinds" text[] NOT NULL,
	"type" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"default_value" jsonb,
	"choices" text[] DEFAULT '{}'::text[] NOT NULL,
	"reference_kind" text,
	"regex" text,
	"min_value" jsonb,
	"max_value" jsonb,
	"min_length" integer,
	"max_length" integer,
	"weight" integer DEFAULT 100 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_field_definitions_name_unique" UNIQUE("name"),
	CONSTRAINT "custom_field_definitions_name" CHECK ("custom_field_definitions"."name" ~ '^[a-z][a-z0-9_]*$')
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "compute_units" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "external_nodes" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "hardware_clusters" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ip_addresses" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "misc_items" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "storage" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "vlans" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "custom_field_definitions_kinds_idx" ON "custom_field_definitions" USING gin ("kinds");--> statement-breakpoint
CREATE INDEX "categories_custom_fields_idx" ON "categories" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "compute_units_custom_fields_idx" ON "compute_units" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "environments_custom_fields_idx" ON "environments" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "external_nodes_custom_fields_idx" ON "external_nodes" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "hardware_custom_fields_idx" ON "hardware" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "hardware_clusters_custom_fields_idx" ON "hardware_clusters" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "ip_addresses_custom_fields_idx" ON "ip_addresses" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "misc_items_custom_fields_idx" ON "misc_items" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "networks_custom_fields_idx" ON "networks" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "services_custom_fields_idx" ON "services" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "sites_custom_fields_idx" ON "sites" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "storage_custom_fields_idx" ON "storage" USING gin ("custom_fields" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "vlans_custom_fields_idx" ON "vlans" USING gin ("custom_fields" jsonb_path_ops);