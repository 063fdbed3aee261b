CREATE TABLE "agent_host_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"hardware_id" integer,
	"ts" timestamp with time zone NOT NULL,
	"cpu_pct" real,
	"mem_pct" real,
	"disk_pct" real,
	"load_1" real,
	"net_rx_bps" double precision,
	"net_tx_bps" double precision
);
--> statement-breakpoint
CREATE TABLE "agent_host_samples_hourly" (
	"agent_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"hardware_id" integer,
	"cpu_pct" real,
	"mem_pct" real,
	"disk_pct" real,
	"load_1" real,
	"net_rx_bps" double precision,
	"net_tx_bps" double precision,
	"sample_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "capacity_forecasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"metric" text NOT NULL,
	"slope_per_day" double precision NOT NULL,
	"current_value" double precision NOT NULL,
	"projected_full_at" timestamp with time zone,
	"warning_threshold_days" integer DEFAULT 30 NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flap_incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"status" text NOT NULL,
	"transition_count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"last_evaluated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hardware_live_metrics" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"cpu_pct" real,
	"mem_pct" real,
	"disk_pct" real,
	"temp_c" real,
	"net_rx_bps" double precision,
	"net_tx_bps" double precision,
	"uptime_s" double precision,
	"status" text,
	"source" text DEFAULT 'push' NOT NULL,
	"sample_count" integer
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"rows_touched" integer,
	"detail" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "resource_recommendations" (
	"id" serial PRIMARY KEY NOT NULL,
	"asset_type" text NOT NULL,
	"asset_id" integer NOT NULL,
	"classification" text NOT NULL,
	"cpu_avg_pct" double precision NOT NULL,
	"cpu_peak_pct" double precision NOT NULL,
	"mem_avg_pct" double precision NOT NULL,
	"recommendation" text NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"status" text NOT NULL,
	"previous_status" text,
	"severity" text DEFAULT 'info' NOT NULL,
	"message" text,
	"metrics" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_configs" (
	"hardware_id" integer PRIMARY KEY NOT NULL,
	"protocol" text DEFAULT 'snmp' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"host" text,
	"port" integer,
	"snmp_version" text,
	"community" text,
	"interval_s" integer DEFAULT 60 NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD CONSTRAINT "agent_host_samples_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_host_samples_hourly" ADD CONSTRAINT "agent_host_samples_hourly_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capacity_forecasts" ADD CONSTRAINT "capacity_forecasts_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flap_incidents" ADD CONSTRAINT "flap_incidents_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware_live_metrics" ADD CONSTRAINT "hardware_live_metrics_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_configs" ADD CONSTRAINT "telemetry_configs_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ahs_agent_ts_idx" ON "agent_host_samples" USING btree ("agent_id","ts");--> statement-breakpoint
CREATE INDEX "ahs_ts_idx" ON "agent_host_samples" USING btree ("ts");--> statement-breakpoint
CREATE UNIQUE INDEX "ahsh_agent_hour_idx" ON "agent_host_samples_hourly" USING btree ("agent_id","hour");--> statement-breakpoint
CREATE INDEX "ahsh_hour_idx" ON "agent_host_samples_hourly" USING btree ("hour");--> statement-breakpoint
CREATE UNIQUE INDEX "capacity_forecasts_hw_metric_idx" ON "capacity_forecasts" USING btree ("hardware_id","metric");--> statement-breakpoint
CREATE UNIQUE INDEX "flap_incidents_one_active_idx" ON "flap_incidents" USING btree ("hardware_id") WHERE "flap_incidents"."status" = 'active';--> statement-breakpoint
CREATE INDEX "hlm_hw_ts_idx" ON "hardware_live_metrics" USING btree ("hardware_id","ts");--> statement-breakpoint
CREATE INDEX "hlm_ts_idx" ON "hardware_live_metrics" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "job_runs_job_idx" ON "job_runs" USING btree ("job","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "resource_recommendations_asset_idx" ON "resource_recommendations" USING btree ("asset_type","asset_id");--> statement-breakpoint
CREATE INDEX "resource_recommendations_eval_idx" ON "resource_recommendations" USING btree ("evaluated_at");--> statement-breakpoint
CREATE INDEX "status_history_entity_idx" ON "status_history" USING btree ("entity_type","entity_id","created_at");