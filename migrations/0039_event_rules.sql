CREATE TABLE "event_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"kinds" text[] NOT NULL,
	"actions" text[] NOT NULL,
	"tag" text,
	"site_id" integer,
	"condition" jsonb,
	"sink_ids" integer[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_rules_kinds_nonempty" CHECK (cardinality(kinds) > 0 and cardinality(actions) > 0 and cardinality(sink_ids) > 0)
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_alert_or_subscriber";--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "event" jsonb;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "event_rule_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "event_rules_name_idx" ON "event_rules" USING btree ("name");--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_event_rule_id_event_rules_id_fk" FOREIGN KEY ("event_rule_id") REFERENCES "public"."event_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_event_rule_idx" ON "notification_deliveries" USING btree ("event_rule_id","id") WHERE event is not null;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_alert_or_subscriber" CHECK ((alert_id is not null and sink_id is not null and subscriber_id is null and notice is null and event is null) or (alert_id is null and sink_id is null and subscriber_id is not null and notice is not null and event is null) or (alert_id is null and sink_id is not null and subscriber_id is null and notice is null and event is not null));