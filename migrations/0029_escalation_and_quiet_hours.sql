CREATE TABLE "notification_escalation_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"steps" jsonb NOT NULL,
	"repeat" integer DEFAULT 0 NOT NULL,
	"renotify_every_minutes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_escalations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint NOT NULL,
	"policy_id" integer NOT NULL,
	"route_sink_ids" integer[] NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"next_step" integer,
	"next_round" integer DEFAULT 0 NOT NULL,
	"next_step_at" timestamp with time zone,
	"renotify_count" integer DEFAULT 0 NOT NULL,
	"next_renotify_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "notification_deliveries_alert_sink_idx";--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "escalation_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "escalation_round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_routes" ADD COLUMN "escalation_policy_id" integer;--> statement-breakpoint
ALTER TABLE "notification_routes" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "notification_escalations" ADD CONSTRAINT "notification_escalations_alert_id_notification_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."notification_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_escalations" ADD CONSTRAINT "notification_escalations_policy_id_notification_escalation_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."notification_escalation_policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_escalations_alert_policy_idx" ON "notification_escalations" USING btree ("alert_id","policy_id");--> statement-breakpoint
CREATE INDEX "notification_escalations_due_idx" ON "notification_escalations" USING btree ("due_at") WHERE state = 'active';--> statement-breakpoint
ALTER TABLE "notification_routes" ADD CONSTRAINT "notification_routes_escalation_policy_id_notification_escalation_policies_id_fk" FOREIGN KEY ("escalation_policy_id") REFERENCES "public"."notification_escalation_policies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_held_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE state = 'held';--> statement-breakpoint
CREATE INDEX "notification_routes_policy_idx" ON "notification_routes" USING btree ("escalation_policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_alert_sink_idx" ON "notification_deliveries" USING btree ("alert_id","sink_id","escalation_step","escalation_round");