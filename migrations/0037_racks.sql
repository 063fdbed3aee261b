CREATE TABLE "rack_reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"rack_id" integer NOT NULL,
	"first_unit" integer NOT NULL,
	"u_count" integer DEFAULT 1 NOT NULL,
	"reason" text NOT NULL,
	"created_by" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rack_reservations_units" CHECK ("rack_reservations"."first_unit" >= 1 and "rack_reservations"."u_count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "racks" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"u_height" integer DEFAULT 42 NOT NULL,
	"numbering" text DEFAULT 'bottom_up' NOT NULL,
	"width" integer DEFAULT 19 NOT NULL,
	"facility_id" text,
	"description" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "racks_u_height_range" CHECK ("racks"."u_height" between 1 and 100),
	CONSTRAINT "racks_numbering" CHECK ("racks"."numbering" in ('bottom_up', 'top_down')),
	CONSTRAINT "racks_width" CHECK ("racks"."width" in (10, 19, 21, 23))
);
--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "rack_id" integer;--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "rack_face" text;--> statement-breakpoint
ALTER TABLE "rack_reservations" ADD CONSTRAINT "rack_reservations_rack_id_racks_id_fk" FOREIGN KEY ("rack_id") REFERENCES "public"."racks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "racks" ADD CONSTRAINT "racks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rack_reservations_rack_idx" ON "rack_reservations" USING btree ("rack_id");--> statement-breakpoint
CREATE UNIQUE INDEX "racks_site_name_idx" ON "racks" USING btree ("site_id","name");--> statement-breakpoint
CREATE INDEX "racks_name_idx" ON "racks" USING btree ("name");--> statement-breakpoint
CREATE INDEX "racks_tags_idx" ON "racks" USING gin ("tags");--> statement-breakpoint
ALTER TABLE "hardware" ADD CONSTRAINT "hardware_rack_id_racks_id_fk" FOREIGN KEY ("rack_id") REFERENCES "public"."racks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hardware_rack_idx" ON "hardware" USING btree ("rack_id");--> statement-breakpoint
ALTER TABLE "hardware" ADD CONSTRAINT "hardware_rack_face" CHECK ("hardware"."rack_face" in ('front', 'rear', 'both'));