ALTER TABLE "notification_alerts" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "incident_id" bigint;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acknowledged_by" text;--> statement-breakpoint
CREATE INDEX "notification_alerts_open_incident_idx" ON "notification_alerts" USING btree ("subject") WHERE incident_id = id and resolved_at is null;--> statement-breakpoint
CREATE INDEX "notification_alerts_incident_idx" ON "notification_alerts" USING btree ("incident_id");