CREATE TABLE "monitor_vantage_results" (
	"monitor_id" integer NOT NULL,
	"vantage" text NOT NULL,
	"status" text,
	"msg" text,
	"latency_ms" real,
	"checked_at" timestamp with time zone,
	"dispatch_status" text,
	"dispatch_reason" text,
	"dispatched_at" timestamp with time zone,
	CONSTRAINT "monitor_vantage_results_monitor_id_vantage_pk" PRIMARY KEY("monitor_id","vantage")
);
--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "vantage_agent_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "vantage_sidecar" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ADD COLUMN "quorum" integer;--> statement-breakpoint
ALTER TABLE "monitor_vantage_results" ADD CONSTRAINT "monitor_vantage_results_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;