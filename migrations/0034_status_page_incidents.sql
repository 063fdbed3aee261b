CREATE TABLE "status_page_incident_updates" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL,
	"status" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_page_incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"public_key" text NOT NULL,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"impact" text NOT NULL,
	"source" text NOT NULL,
	"affected" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"auto_key" text,
	"published_at" timestamp with time zone,
	"publish_after" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "status_pages" ADD COLUMN "auto_incidents" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "status_pages" ADD COLUMN "auto_publish_after_s" integer;--> statement-breakpoint
ALTER TABLE "status_page_incident_updates" ADD CONSTRAINT "status_page_incident_updates_incident_id_status_page_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."status_page_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_incidents" ADD CONSTRAINT "status_page_incidents_page_id_status_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "status_page_incident_updates_incident_idx" ON "status_page_incident_updates" USING btree ("incident_id","created_at");--> statement-breakpoint
CREATE INDEX "status_page_incidents_page_idx" ON "status_page_incidents" USING btree ("page_id","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_incidents_public_key_idx" ON "status_page_incidents" USING btree ("public_key");--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_incidents_auto_open_idx" ON "status_page_incidents" USING btree ("page_id","auto_key") WHERE auto_key is not null and resolved_at is null;