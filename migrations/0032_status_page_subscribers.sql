CREATE TABLE "status_page_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"kind" text NOT NULL,
	"address" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirm_sent_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "status_page_subscribers_kind" CHECK ("status_page_subscribers"."kind" in ('email', 'webhook'))
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ALTER COLUMN "alert_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ALTER COLUMN "sink_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "subscriber_id" integer;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "notice" jsonb;--> statement-breakpoint
ALTER TABLE "status_page_subscribers" ADD CONSTRAINT "status_page_subscribers_page_id_status_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_subscribers_address_idx" ON "status_page_subscribers" USING btree ("page_id","kind","address");--> statement-breakpoint
CREATE INDEX "status_page_subscribers_pending_idx" ON "status_page_subscribers" USING btree ("confirm_sent_at") WHERE confirmed_at is null;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_subscriber_id_status_page_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."status_page_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_subscriber_idx" ON "notification_deliveries" USING btree ("subscriber_id") WHERE subscriber_id is not null;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_alert_or_subscriber" CHECK ((alert_id is not null and sink_id is not null and subscriber_id is null and notice is null) or (alert_id is null and sink_id is null and subscriber_id is not null and notice is not null));