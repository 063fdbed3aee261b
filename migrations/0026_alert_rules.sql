CREATE TABLE "alert_rule_states" (
	"rule_id" integer NOT NULL,
	"hardware_id" integer NOT NULL,
	"state" text NOT NULL,
	"pending_since" timestamp with time zone,
	"firing_since" timestamp with time zone,
	"last_value" double precision,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_rule_states_rule_id_hardware_id_pk" PRIMARY KEY("rule_id","hardware_id")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"metric" text NOT NULL,
	"operator" text NOT NULL,
	"threshold" double precision NOT NULL,
	"clear_threshold" double precision NOT NULL,
	"aggregation" text DEFAULT 'last' NOT NULL,
	"window_secs" integer DEFAULT 300 NOT NULL,
	"for_secs" integer DEFAULT 0 NOT NULL,
	"severity" text DEFAULT 'warning' NOT NULL,
	"scope_kind" text DEFAULT 'all' NOT NULL,
	"scope_node_id" integer,
	"scope_tag" text,
	"scope_site_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_rule_states" ADD CONSTRAINT "alert_rule_states_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_scope_site_id_sites_id_fk" FOREIGN KEY ("scope_site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_rule_states_hw_idx" ON "alert_rule_states" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "alert_rules_metric_idx" ON "alert_rules" USING btree ("metric");