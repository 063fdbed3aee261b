CREATE TABLE "notification_ack_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"incident_id" bigint NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD COLUMN "acknowledged_note" text;--> statement-breakpoint
CREATE INDEX "notification_ack_nonces_used_idx" ON "notification_ack_nonces" USING btree ("used_at");