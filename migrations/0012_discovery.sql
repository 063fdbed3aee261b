CREATE TABLE "external_refs" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discovery_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cidr" text,
	"targets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exclude" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scan_agent_id" integer,
	"managed_by" text,
	"paused_at" timestamp with time zone,
	"vlan_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scan_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tcp_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ports_preset" text,
	"nmap_arguments" text,
	"snmp_community" text,
	"snmp_version" text DEFAULT '2c' NOT NULL,
	"snmp_port" integer DEFAULT 161 NOT NULL,
	"docker_network_types" jsonb DEFAULT '["bridge"]'::jsonb NOT NULL,
	"docker_port_scan" boolean DEFAULT false NOT NULL,
	"docker_socket_path" text DEFAULT '/var/run/docker.sock' NOT NULL,
	"schedule_cron" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_run" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lldp_neighbors" (
	"id" serial PRIMARY KEY NOT NULL,
	"scan_job_id" integer NOT NULL,
	"source_scan_result_id" integer,
	"source_hardware_id" integer,
	"neighbor_index" integer NOT NULL,
	"local_port_desc" text,
	"remote_chassis_id" text,
	"remote_port_desc" text,
	"remote_sys_name" text,
	"remote_mgmt_ip" text,
	"remote_caps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"remote_hardware_id" integer,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"profile_id" integer,
	"scan_agent_id" integer,
	"source_type" text DEFAULT 'manual' NOT NULL,
	"label" text,
	"target_cidr" text,
	"targets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exclude" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vlan_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"network_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scan_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tcp_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"snmp_community" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"addresses_total" integer DEFAULT 0 NOT NULL,
	"addresses_done" integer DEFAULT 0 NOT NULL,
	"hosts_found" integer DEFAULT 0 NOT NULL,
	"hosts_new" integer DEFAULT 0 NOT NULL,
	"hosts_updated" integer DEFAULT 0 NOT NULL,
	"hosts_conflict" integer DEFAULT 0 NOT NULL,
	"error_text" text,
	"error_reason" text,
	"triggered_by" text,
	"triggered_by_user_id" integer,
	"progress_phase" text,
	"progress_message" text,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"dispatch_id" text,
	"dispatched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"scan_job_id" integer NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text DEFAULT 'INFO' NOT NULL,
	"phase" text,
	"message" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"scan_job_id" integer NOT NULL,
	"ip_address" text NOT NULL,
	"mac_address" text,
	"hostname" text,
	"open_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vendor" text,
	"os_family" text,
	"os_vendor" text,
	"os_accuracy" integer,
	"snmp_sys_name" text,
	"snmp_sys_descr" text,
	"vlan_id" integer,
	"network_id" integer,
	"device_type" text,
	"device_confidence" real,
	"rtt_ms" real,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"conflicts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"matched_entity_type" text,
	"matched_entity_id" integer,
	"matched_by" text,
	"discovery_agent_id" integer,
	"merge_status" text DEFAULT 'pending' NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"merge_audit_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discovery_profiles" ADD CONSTRAINT "discovery_profiles_scan_agent_id_agents_id_fk" FOREIGN KEY ("scan_agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lldp_neighbors" ADD CONSTRAINT "lldp_neighbors_scan_job_id_scan_jobs_id_fk" FOREIGN KEY ("scan_job_id") REFERENCES "public"."scan_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lldp_neighbors" ADD CONSTRAINT "lldp_neighbors_source_scan_result_id_scan_results_id_fk" FOREIGN KEY ("source_scan_result_id") REFERENCES "public"."scan_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lldp_neighbors" ADD CONSTRAINT "lldp_neighbors_source_hardware_id_hardware_id_fk" FOREIGN KEY ("source_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lldp_neighbors" ADD CONSTRAINT "lldp_neighbors_remote_hardware_id_hardware_id_fk" FOREIGN KEY ("remote_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_jobs" ADD CONSTRAINT "scan_jobs_profile_id_discovery_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."discovery_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_jobs" ADD CONSTRAINT "scan_jobs_scan_agent_id_agents_id_fk" FOREIGN KEY ("scan_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_logs" ADD CONSTRAINT "scan_logs_scan_job_id_scan_jobs_id_fk" FOREIGN KEY ("scan_job_id") REFERENCES "public"."scan_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_results" ADD CONSTRAINT "scan_results_scan_job_id_scan_jobs_id_fk" FOREIGN KEY ("scan_job_id") REFERENCES "public"."scan_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_results" ADD CONSTRAINT "scan_results_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_results" ADD CONSTRAINT "scan_results_discovery_agent_id_agents_id_fk" FOREIGN KEY ("discovery_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_refs_source_idx" ON "external_refs" USING btree ("source","external_id");--> statement-breakpoint
CREATE INDEX "external_refs_entity_idx" ON "external_refs" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "discovery_profiles_due_idx" ON "discovery_profiles" USING btree ("next_run_at") WHERE enabled and paused_at is null;--> statement-breakpoint
CREATE INDEX "discovery_profiles_agent_idx" ON "discovery_profiles" USING btree ("scan_agent_id");--> statement-breakpoint
CREATE INDEX "lldp_neighbors_job_idx" ON "lldp_neighbors" USING btree ("scan_job_id","neighbor_index");--> statement-breakpoint
CREATE INDEX "scan_jobs_open_idx" ON "scan_jobs" USING btree ("status","id") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "scan_jobs_profile_idx" ON "scan_jobs" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "scan_jobs_agent_idx" ON "scan_jobs" USING btree ("scan_agent_id");--> statement-breakpoint
CREATE INDEX "scan_jobs_dispatch_idx" ON "scan_jobs" USING btree ("dispatch_id");--> statement-breakpoint
CREATE INDEX "scan_logs_job_idx" ON "scan_logs" USING btree ("scan_job_id","id");--> statement-breakpoint
CREATE INDEX "scan_results_job_idx" ON "scan_results" USING btree ("scan_job_id","id");--> statement-breakpoint
CREATE INDEX "scan_results_pending_idx" ON "scan_results" USING btree ("merge_status","id");--> statement-breakpoint
CREATE INDEX "scan_results_ip_idx" ON "scan_results" USING btree ("ip_address","id");--> statement-breakpoint
CREATE INDEX "scan_results_agent_idx" ON "scan_results" USING btree ("discovery_agent_id");--> statement-breakpoint
CREATE INDEX "compute_units_ip_idx" ON "compute_units" USING btree ("ip_address");--> statement-breakpoint
CREATE INDEX "hardware_mac_idx" ON "hardware" USING btree (lower("mac_address"));--> statement-breakpoint
CREATE INDEX "hardware_ip_idx" ON "hardware" USING btree ("ip_address");--> statement-breakpoint
CREATE INDEX "hardware_lower_name_idx" ON "hardware" USING btree (lower("name"));