CREATE TABLE "prefixes" (
	"id" serial PRIMARY KEY NOT NULL,
	"prefix" "cidr" NOT NULL,
	"vrf_id" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"is_pool" boolean DEFAULT false NOT NULL,
	"mark_utilized" boolean DEFAULT false NOT NULL,
	"site_id" integer,
	"vlan_id" integer,
	"description" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prefixes_status" CHECK ("prefixes"."status" in ('container', 'active', 'reserved', 'deprecated'))
);
--> statement-breakpoint
CREATE TABLE "vrfs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rd" text,
	"description" text,
	"enforce_unique" boolean DEFAULT true NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prefixes" ADD CONSTRAINT "prefixes_vrf_id_vrfs_id_fk" FOREIGN KEY ("vrf_id") REFERENCES "public"."vrfs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prefixes" ADD CONSTRAINT "prefixes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prefixes" ADD CONSTRAINT "prefixes_vlan_id_vlans_id_fk" FOREIGN KEY ("vlan_id") REFERENCES "public"."vlans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prefixes_prefix_gist_idx" ON "prefixes" USING gist ("prefix" inet_ops);--> statement-breakpoint
CREATE INDEX "prefixes_vrf_prefix_idx" ON "prefixes" USING btree ("vrf_id","prefix");--> statement-breakpoint
CREATE INDEX "prefixes_site_idx" ON "prefixes" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "prefixes_status_idx" ON "prefixes" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "vrfs_name_idx" ON "vrfs" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "vrfs_rd_idx" ON "vrfs" USING btree ("rd");