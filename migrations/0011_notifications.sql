CREATE TABLE "notification_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"monitor_id" integer,
	"target_type" text,
	"target_id" integer,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"suppressed_by" bigint,
	"test_sink_id" integer,
	"dispatched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint NOT NULL,
	"sink_id" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"replayed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"sink_id" integer NOT NULL,
	"alert_severity" text DEFAULT '*' NOT NULL,
	"event_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"site_id" integer,
	"environment_id" integer,
	"tag" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_sinks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"provider_type" text NOT NULL,
	"provider_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD CONSTRAINT "notification_alerts_test_sink_id_notification_sinks_id_fk" FOREIGN KEY ("test_sink_id") REFERENCES "public"."notification_sinks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_delivery_id_notification_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_alert_id_notification_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."notification_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_sink_id_notification_sinks_id_fk" FOREIGN KEY ("sink_id") REFERENCES "public"."notification_sinks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_routes" ADD CONSTRAINT "notification_routes_sink_id_notification_sinks_id_fk" FOREIGN KEY ("sink_id") REFERENCES "public"."notification_sinks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_routes" ADD CONSTRAINT "notification_routes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_routes" ADD CONSTRAINT "notification_routes_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_alerts_waiting_idx" ON "notification_alerts" USING btree ("occurred_at") WHERE state = 'waiting';--> statement-breakpoint
CREATE INDEX "notification_alerts_monitor_idx" ON "notification_alerts" USING btree ("monitor_id","occurred_at");--> statement-breakpoint
CREATE INDEX "notification_alerts_suppressed_by_idx" ON "notification_alerts" USING btree ("suppressed_by");--> statement-breakpoint
CREATE INDEX "notification_attempts_delivery_idx" ON "notification_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_alert_sink_idx" ON "notification_deliveries" USING btree ("alert_id","sink_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE state in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "notification_deliveries_sink_idx" ON "notification_deliveries" USING btree ("sink_id");--> statement-breakpoint
CREATE INDEX "notification_routes_sink_idx" ON "notification_routes" USING btree ("sink_id");