CREATE TABLE "agent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"actor_user_id" integer,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_latest_telemetry" (
	"agent_id" integer PRIMARY KEY NOT NULL,
	"sample_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"summary" jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_probe_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"monitor_id" integer,
	"check_type" text NOT NULL,
	"host" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"dispatched_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"late" boolean DEFAULT false NOT NULL,
	"up" boolean,
	"samples" jsonb,
	"msg" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_server_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"rotation_started_at" timestamp with time zone,
	"overlap_expires_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "agent_server_keys_public_key_unique" UNIQUE("public_key")
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text,
	"hostname" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"os" text,
	"os_version" text,
	"arch" text,
	"agent_version" text,
	"device_pk" text NOT NULL,
	"fingerprint" text NOT NULL,
	"machine_id_hash" text,
	"primary_macs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"networks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"readiness" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"capability_schema" integer DEFAULT 1 NOT NULL,
	"reported_ip" text,
	"notes" text,
	"hardware_id" integer,
	"proposed_hardware_id" integer,
	"capabilities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"pairing_code_hash" text,
	"pairing_expires_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"revoke_reason" text,
	"last_seen_at" timestamp with time zone,
	"connected_since" timestamp with time zone,
	"link_owner" text,
	"server_key_id" integer,
	"spool_depth" integer,
	"spool_bytes" bigint,
	"spool_reported_at" timestamp with time zone,
	"pending_update" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_device_pk_unique" UNIQUE("device_pk")
);
--> statement-breakpoint
CREATE TABLE "vault_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"key_id" text NOT NULL,
	"canary" text NOT NULL,
	"initialized_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_rotation_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD COLUMN "swap_pct" real;--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD COLUMN "max_temp_c" real;--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD COLUMN "uptime_s" double precision;--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "agent_host_samples" ADD COLUMN "sample_id" text;--> statement-breakpoint
ALTER TABLE "agent_events" ADD CONSTRAINT "agent_events_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_events" ADD CONSTRAINT "agent_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_latest_telemetry" ADD CONSTRAINT "agent_latest_telemetry_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_probe_runs" ADD CONSTRAINT "agent_probe_runs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_proposed_hardware_id_hardware_id_fk" FOREIGN KEY ("proposed_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_server_key_id_agent_server_keys_id_fk" FOREIGN KEY ("server_key_id") REFERENCES "public"."agent_server_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_events_agent_idx" ON "agent_events" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "agent_probe_runs_agent_state_idx" ON "agent_probe_runs" USING btree ("agent_id","state");--> statement-breakpoint
CREATE INDEX "agent_probe_runs_monitor_idx" ON "agent_probe_runs" USING btree ("monitor_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_server_keys_one_current" ON "agent_server_keys" USING btree ("state") WHERE state = 'current';--> statement-breakpoint
CREATE UNIQUE INDEX "agent_server_keys_one_successor" ON "agent_server_keys" USING btree ("state") WHERE state = 'successor';--> statement-breakpoint
CREATE INDEX "agents_status_idx" ON "agents" USING btree ("status");--> statement-breakpoint
CREATE INDEX "agents_hardware_idx" ON "agents" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "agents_machine_id_idx" ON "agents" USING btree ("machine_id_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_pairing_code_idx" ON "agents" USING btree ("pairing_code_hash") WHERE pairing_code_hash is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ahs_agent_sample_idx" ON "agent_host_samples" USING btree ("agent_id","sample_id");