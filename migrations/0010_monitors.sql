CREATE TABLE "maintenance_windows" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"cron" text,
	"duration_minutes" integer,
	"timezone" text,
	"monitor_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"target_type" text,
	"target_id" integer,
	"site_id" integer,
	"tag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"monitor_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"status_from" text,
	"status_to" text,
	"msg" text,
	"duration_secs" integer,
	"suppressed_by" bigint,
	"actor_user_id" integer,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_samples" (
	"monitor_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"avail" boolean NOT NULL,
	"latency_ms" real,
	"packet_loss_pct" real,
	"http_status" integer,
	"cert_days_remaining" integer,
	"extra" jsonb,
	"msg" text,
	"source" text DEFAULT 'server' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_uptime_daily" (
	"monitor_id" integer NOT NULL,
	"day" date NOT NULL,
	"up" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"minutes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monitor_uptime_daily_monitor_id_day_pk" PRIMARY KEY("monitor_id","day")
);
--> statement-breakpoint
CREATE TABLE "monitor_uptime_minutes" (
	"monitor_id" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"up" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monitor_uptime_minutes_monitor_id_minute_pk" PRIMARY KEY("monitor_id","minute")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"check_type" text NOT NULL,
	"host" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret_config" text,
	"interval_secs" integer DEFAULT 60 NOT NULL,
	"max_retries" integer DEFAULT 0 NOT NULL,
	"retry_interval_secs" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"target_type" text,
	"target_id" integer,
	"probe_agent_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_status_change_at" timestamp with time zone,
	"last_latency_ms" real,
	"last_msg" text,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"probe_execution_status" text,
	"probe_execution_reason" text,
	"probe_last_dispatched_at" timestamp with time zone,
	"probe_last_result_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_events" ADD CONSTRAINT "monitor_events_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_events" ADD CONSTRAINT "monitor_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_samples" ADD CONSTRAINT "monitor_samples_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_uptime_daily" ADD CONSTRAINT "monitor_uptime_daily_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_uptime_minutes" ADD CONSTRAINT "monitor_uptime_minutes_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_probe_agent_id_agents_id_fk" FOREIGN KEY ("probe_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_windows_enabled_idx" ON "maintenance_windows" USING btree ("enabled");--> statement-breakpoint
CREATE INDEX "monitor_events_monitor_idx" ON "monitor_events" USING btree ("monitor_id","id");--> statement-breakpoint
CREATE INDEX "monitor_samples_monitor_ts_idx" ON "monitor_samples" USING btree ("monitor_id","ts");--> statement-breakpoint
CREATE INDEX "monitor_samples_ts_brin" ON "monitor_samples" USING brin ("ts");--> statement-breakpoint
CREATE INDEX "monitor_uptime_minutes_minute_brin" ON "monitor_uptime_minutes" USING brin ("minute");--> statement-breakpoint
CREATE INDEX "monitors_due_idx" ON "monitors" USING btree ("next_check_at") WHERE enabled;--> statement-breakpoint
CREATE INDEX "monitors_target_idx" ON "monitors" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "monitors_probe_agent_idx" ON "monitors" USING btree ("probe_agent_id");--> statement-breakpoint
CREATE INDEX "monitors_name_idx" ON "monitors" USING btree ("name","id");