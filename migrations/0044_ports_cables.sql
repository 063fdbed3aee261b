CREATE TABLE "cables" (
	"id" serial PRIMARY KEY NOT NULL,
	"a_kind" text NOT NULL,
	"a_id" integer NOT NULL,
	"b_kind" text NOT NULL,
	"b_id" integer NOT NULL,
	"type" text,
	"status" text DEFAULT 'connected' NOT NULL,
	"label" text,
	"colour" text,
	"length" double precision,
	"length_unit" text,
	"description" text,
	"connection_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cables_kinds" CHECK ("cables"."a_kind" in ('interface', 'front_port', 'rear_port', 'power_port', 'power_outlet') and "cables"."b_kind" in ('interface', 'front_port', 'rear_port', 'power_port', 'power_outlet')),
	CONSTRAINT "cables_status" CHECK ("cables"."status" in ('connected', 'planned', 'decommissioning')),
	CONSTRAINT "cables_length_unit" CHECK ("cables"."length_unit" in ('m', 'cm', 'km', 'ft', 'in')),
	CONSTRAINT "cables_not_looped" CHECK (not ("cables"."a_kind" = "cables"."b_kind" and "cables"."a_id" = "cables"."b_id"))
);
--> statement-breakpoint
CREATE TABLE "front_ports" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT '8p8c' NOT NULL,
	"rear_port_id" integer NOT NULL,
	"rear_position" integer DEFAULT 1 NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interfaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'copper' NOT NULL,
	"speed_mbps" integer,
	"mac_address" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"lag_id" integer,
	"vlan_mode" text,
	"untagged_vlan_id" integer,
	"tagged_vlan_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interfaces_type" CHECK ("interfaces"."type" in ('copper', 'fibre', 'wireless', 'virtual', 'lag')),
	CONSTRAINT "interfaces_vlan_mode" CHECK ("interfaces"."vlan_mode" in ('access', 'tagged', 'tagged-all')),
	CONSTRAINT "interfaces_not_own_lag" CHECK ("interfaces"."lag_id" <> "interfaces"."id")
);
--> statement-breakpoint
CREATE TABLE "power_outlets" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "power_ports" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"name" text NOT NULL,
	"allocated_w" integer,
	"maximum_w" integer,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rear_ports" (
	"id" serial PRIMARY KEY NOT NULL,
	"hardware_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT '8p8c' NOT NULL,
	"positions" integer DEFAULT 1 NOT NULL,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rear_ports_positions" CHECK ("rear_ports"."positions" between 1 and 1024)
);
--> statement-breakpoint
ALTER TABLE "cables" ADD CONSTRAINT "cables_connection_id_hardware_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."hardware_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "front_ports" ADD CONSTRAINT "front_ports_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "front_ports" ADD CONSTRAINT "front_ports_rear_port_id_rear_ports_id_fk" FOREIGN KEY ("rear_port_id") REFERENCES "public"."rear_ports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interfaces" ADD CONSTRAINT "interfaces_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interfaces" ADD CONSTRAINT "interfaces_lag_id_interfaces_id_fk" FOREIGN KEY ("lag_id") REFERENCES "public"."interfaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_outlets" ADD CONSTRAINT "power_outlets_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_ports" ADD CONSTRAINT "power_ports_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rear_ports" ADD CONSTRAINT "rear_ports_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cables_a_end_idx" ON "cables" USING btree ("a_kind","a_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cables_b_end_idx" ON "cables" USING btree ("b_kind","b_id");--> statement-breakpoint
CREATE INDEX "cables_connection_idx" ON "cables" USING btree ("connection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "front_ports_node_name_idx" ON "front_ports" USING btree ("hardware_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "front_ports_rear_position_idx" ON "front_ports" USING btree ("rear_port_id","rear_position");--> statement-breakpoint
CREATE UNIQUE INDEX "interfaces_node_name_idx" ON "interfaces" USING btree ("hardware_id","name");--> statement-breakpoint
CREATE INDEX "interfaces_lag_idx" ON "interfaces" USING btree ("lag_id");--> statement-breakpoint
CREATE INDEX "interfaces_lower_name_idx" ON "interfaces" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "power_outlets_node_name_idx" ON "power_outlets" USING btree ("hardware_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "power_ports_node_name_idx" ON "power_ports" USING btree ("hardware_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "rear_ports_node_name_idx" ON "rear_ports" USING btree ("hardware_id","name");