ALTER TABLE "telemetry_configs" ADD COLUMN "usm" jsonb;--> statement-breakpoint
ALTER TABLE "telemetry_configs" ADD COLUMN "usm_keys" text;