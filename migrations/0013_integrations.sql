CREATE TABLE "hv_discover_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer,
	"status" text DEFAULT 'running' NOT NULL,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"triggered_by" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"cluster_name" text,
	"nodes_imported" integer DEFAULT 0 NOT NULL,
	"vms_imported" integer DEFAULT 0 NOT NULL,
	"cts_imported" integer DEFAULT 0 NOT NULL,
	"networks_imported" integer DEFAULT 0 NOT NULL,
	"storage_imported" integer DEFAULT 0 NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"vanished" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audit_id" integer
);
--> statement-breakpoint
CREATE TABLE "integration_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"config_url" text NOT NULL,
	"credential_type" text DEFAULT 'api_key' NOT NULL,
	"credential" text,
	"cluster_name" text,
	"auto_sync" boolean DEFAULT true NOT NULL,
	"sync_interval_s" integer DEFAULT 300 NOT NULL,
	"verify_ssl" boolean DEFAULT true NOT NULL,
	"ca_cert" text,
	"extra_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_sync_status" text,
	"last_sync_error" text,
	"next_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_monitor_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"monitor_id" integer NOT NULL,
	"previous_status" text,
	"new_status" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"reason_by" integer,
	"reason_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integration_monitors" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"uptime_7d" real,
	"uptime_30d" real,
	"last_checked_at" timestamp with time zone,
	"avg_response_ms" real,
	"cert_expiry_days" integer,
	"linked_hardware_id" integer,
	"linked_service_id" integer,
	"last_heartbeat_at" timestamp with time zone,
	"probe_type" text,
	"probe_target" text,
	"probe_port" integer,
	"probe_interval_s" integer DEFAULT 60 NOT NULL,
	"is_native" boolean DEFAULT false NOT NULL,
	"monitor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"base_url" text,
	"slug" text,
	"api_key" text,
	"sync_interval_s" integer DEFAULT 60 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_synced_at" timestamp with time zone,
	"sync_status" text DEFAULT 'never' NOT NULL,
	"sync_error" text,
	"next_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hv_discover_runs" ADD CONSTRAINT "hv_discover_runs_integration_id_integration_configs_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integration_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_monitor_events" ADD CONSTRAINT "integration_monitor_events_monitor_id_integration_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."integration_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_monitors" ADD CONSTRAINT "integration_monitors_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_monitors" ADD CONSTRAINT "integration_monitors_linked_hardware_id_hardware_id_fk" FOREIGN KEY ("linked_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_monitors" ADD CONSTRAINT "integration_monitors_linked_service_id_services_id_fk" FOREIGN KEY ("linked_service_id") REFERENCES "public"."services"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_monitors" ADD CONSTRAINT "integration_monitors_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hv_discover_runs_integration_idx" ON "hv_discover_runs" USING btree ("integration_id","id");--> statement-breakpoint
CREATE INDEX "integration_configs_due_idx" ON "integration_configs" USING btree ("next_sync_at") WHERE auto_sync;--> statement-breakpoint
CREATE INDEX "integration_monitor_events_monitor_idx" ON "integration_monitor_events" USING btree ("monitor_id","detected_at");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_monitors_external_idx" ON "integration_monitors" USING btree ("integration_id","external_id");--> statement-breakpoint
CREATE INDEX "integration_monitors_hardware_idx" ON "integration_monitors" USING btree ("linked_hardware_id");--> statement-breakpoint
CREATE INDEX "integration_monitors_service_idx" ON "integration_monitors" USING btree ("linked_service_id");--> statement-breakpoint
CREATE INDEX "integration_monitors_monitor_idx" ON "integration_monitors" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "integrations_due_idx" ON "integrations" USING btree ("next_sync_at") WHERE enabled;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_native_idx" ON "integrations" USING btree ("type") WHERE type = 'native';