CREATE TABLE "status_page_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"section_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"monitor_id" integer,
	"service_id" integer,
	"tag" text,
	"public_name" text,
	CONSTRAINT "status_page_items_kind_check" CHECK ((kind = 'monitor' and monitor_id is not null and service_id is null and tag is null)
        or (kind = 'service' and service_id is not null and monitor_id is null and tag is null)
        or (kind = 'tag' and tag is not null and monitor_id is null and service_id is null))
);
--> statement-breakpoint
CREATE TABLE "status_page_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"show_messages" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"logo_url" text,
	"primary_color" text,
	"accent_color" text,
	"footer_text" text,
	"published" boolean DEFAULT false NOT NULL,
	"custom_domain" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "status_page_items" ADD CONSTRAINT "status_page_items_section_id_status_page_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."status_page_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_items" ADD CONSTRAINT "status_page_items_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_items" ADD CONSTRAINT "status_page_items_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_sections" ADD CONSTRAINT "status_page_sections_page_id_status_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_items_position_idx" ON "status_page_items" USING btree ("section_id","position");--> statement-breakpoint
CREATE INDEX "status_page_items_monitor_idx" ON "status_page_items" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "status_page_items_service_idx" ON "status_page_items" USING btree ("service_id");--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_sections_position_idx" ON "status_page_sections" USING btree ("page_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "status_pages_slug_idx" ON "status_pages" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "status_pages_custom_domain_idx" ON "status_pages" USING btree ("custom_domain") WHERE custom_domain is not null;