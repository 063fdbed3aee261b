CREATE TABLE "discovery_listener_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"protocol" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"address" text,
	"mac_address" text,
	"hostname" text,
	"services" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vendor" text,
	"model" text,
	"serial_number" text,
	"location" text,
	"usn" text,
	"server" text,
	"heard_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discovery_listener_state" (
	"owner" text PRIMARY KEY NOT NULL,
	"status" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_results" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "scan_results" ADD COLUMN "serial_number" text;--> statement-breakpoint
CREATE INDEX "discovery_listener_events_time_idx" ON "discovery_listener_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "discovery_listener_events_protocol_idx" ON "discovery_listener_events" USING btree ("protocol","id");--> statement-breakpoint
CREATE INDEX "discovery_listener_events_address_idx" ON "discovery_listener_events" USING btree ("address","id");