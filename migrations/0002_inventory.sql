CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text,
	"icon" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "cluster_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"cluster_id" integer NOT NULL,
	"hardware_id" integer NOT NULL,
	"role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compute_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"hardware_id" integer,
	"memory_mb" integer,
	"cpu_cores" double precision,
	"disk_gb" double precision,
	"ip_address" text,
	"status" text DEFAULT 'unknown' NOT NULL,
	"os" text,
	"icon_slug" text,
	"environment_id" integer,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compute_units_kind" CHECK ("compute_units"."kind" in ('vm', 'container'))
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "environments_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "external_node_networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_node_id" integer NOT NULL,
	"network_id" integer NOT NULL,
	"link_type" text
);
--> statement-breakpoint
CREATE TABLE "external_nodes" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"provider" text,
	"kind" text,
	"region" text,
	"ip_address" text,
	"url" text,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hardware" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role" text,
	"vendor" text,
	"model" text,
	"cpu" text,
	"cpu_brand" text,
	"memory_gb" double precision,
	"ip_address" text,
	"mac_address" text,
	"status" text DEFAULT 'unknown' NOT NULL,
	"status_override" text,
	"location" text,
	"u_height" integer,
	"rack_unit" integer,
	"environment_id" integer,
	"site_id" integer,
	"vendor_catalog_key" text,
	"model_catalog_key" text,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hardware_clusters" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"description" text,
	"environment_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hardware_clusters_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "hardware_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_hardware_id" integer NOT NULL,
	"target_hardware_id" integer NOT NULL,
	"connection_type" text DEFAULT 'ethernet' NOT NULL,
	"bandwidth_mbps" integer,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hardware_connections_not_self" CHECK ("hardware_connections"."source_hardware_id" <> "hardware_connections"."target_hardware_id")
);
--> statement-breakpoint
CREATE TABLE "ip_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"network_id" integer,
	"status" text DEFAULT 'allocated' NOT NULL,
	"hostname" text,
	"mac_address" text,
	"assigned_type" text,
	"assigned_id" integer,
	"description" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_addresses_address_unique" UNIQUE("address")
);
--> statement-breakpoint
CREATE TABLE "misc_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text,
	"description" text,
	"url" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_hardware_members" (
	"network_id" integer NOT NULL,
	"hardware_id" integer NOT NULL,
	"ip_address" text,
	CONSTRAINT "network_hardware_members_network_id_hardware_id_pk" PRIMARY KEY("network_id","hardware_id")
);
--> statement-breakpoint
CREATE TABLE "network_members" (
	"network_id" integer NOT NULL,
	"compute_id" integer NOT NULL,
	"ip_address" text,
	CONSTRAINT "network_members_network_id_compute_id_pk" PRIMARY KEY("network_id","compute_id")
);
--> statement-breakpoint
CREATE TABLE "network_peers" (
	"network_id" integer NOT NULL,
	"peer_network_id" integer NOT NULL,
	"description" text,
	CONSTRAINT "network_peers_network_id_peer_network_id_pk" PRIMARY KEY("network_id","peer_network_id"),
	CONSTRAINT "network_peers_not_self" CHECK ("network_peers"."network_id" <> "network_peers"."peer_network_id")
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cidr" text,
	"vlan_id" integer,
	"gateway" text,
	"dns_servers" text[],
	"description" text,
	"site_id" integer,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_dependencies" (
	"service_id" integer NOT NULL,
	"depends_on_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_dependencies_service_id_depends_on_id_pk" PRIMARY KEY("service_id","depends_on_id"),
	CONSTRAINT "service_dependencies_not_self" CHECK ("service_dependencies"."service_id" <> "service_dependencies"."depends_on_id")
);
--> statement-breakpoint
CREATE TABLE "service_external_dependencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"external_node_id" integer NOT NULL,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "service_misc" (
	"service_id" integer NOT NULL,
	"misc_id" integer NOT NULL,
	CONSTRAINT "service_misc_service_id_misc_id_pk" PRIMARY KEY("service_id","misc_id")
);
--> statement-breakpoint
CREATE TABLE "service_storage" (
	"service_id" integer NOT NULL,
	"storage_id" integer NOT NULL,
	"mount_path" text,
	CONSTRAINT "service_storage_service_id_storage_id_pk" PRIMARY KEY("service_id","storage_id")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"environment" text,
	"environment_id" integer,
	"status" text DEFAULT 'running' NOT NULL,
	"hardware_id" integer,
	"compute_id" integer,
	"category_id" integer,
	"url" text,
	"ip_address" text,
	"ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"address" text,
	"latitude" double precision,
	"longitude" double precision,
	"notes" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "storage" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"capacity_gb" double precision,
	"used_gb" double precision,
	"hardware_id" integer,
	"path" text,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_kind" CHECK ("storage"."kind" in ('disk', 'pool', 'dataset', 'share'))
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tags_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "vlans" (
	"id" serial PRIMARY KEY NOT NULL,
	"vlan_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"site_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vlans_range" CHECK ("vlans"."vlan_id" between 1 and 4094)
);
--> statement-breakpoint
CREATE TABLE "doc_entities" (
	"doc_id" integer NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	CONSTRAINT "doc_entities_doc_id_entity_type_entity_id_pk" PRIMARY KEY("doc_id","entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "docs" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body_md" text DEFAULT '' NOT NULL,
	"category" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "graph_layouts" (
	"name" text PRIMARY KEY NOT NULL,
	"positions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_hostnames" (
	"id" serial PRIMARY KEY NOT NULL,
	"pattern" text NOT NULL,
	"vendor" text,
	"device_type" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kb_hostnames_pattern_unique" UNIQUE("pattern")
);
--> statement-breakpoint
CREATE TABLE "kb_oui" (
	"prefix" text PRIMARY KEY NOT NULL,
	"vendor" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_entities" (
	"map_id" integer NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"x" double precision,
	"y" double precision,
	CONSTRAINT "map_entities_map_id_entity_type_entity_id_pk" PRIMARY KEY("map_id","entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "map_pins" (
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "map_pins_entity_type_entity_id_pk" PRIMARY KEY("entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "maps" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"background" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topologies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topology_nodes" (
	"topology_id" integer NOT NULL,
	"node_id" text NOT NULL,
	"x" double precision,
	"y" double precision,
	CONSTRAINT "topology_nodes_topology_id_node_id_pk" PRIMARY KEY("topology_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cluster_members" ADD CONSTRAINT "cluster_members_cluster_id_hardware_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."hardware_clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_members" ADD CONSTRAINT "cluster_members_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compute_units" ADD CONSTRAINT "compute_units_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compute_units" ADD CONSTRAINT "compute_units_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_node_networks" ADD CONSTRAINT "external_node_networks_external_node_id_external_nodes_id_fk" FOREIGN KEY ("external_node_id") REFERENCES "public"."external_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_node_networks" ADD CONSTRAINT "external_node_networks_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware" ADD CONSTRAINT "hardware_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware" ADD CONSTRAINT "hardware_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware_clusters" ADD CONSTRAINT "hardware_clusters_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware_connections" ADD CONSTRAINT "hardware_connections_source_hardware_id_hardware_id_fk" FOREIGN KEY ("source_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware_connections" ADD CONSTRAINT "hardware_connections_target_hardware_id_hardware_id_fk" FOREIGN KEY ("target_hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_hardware_members" ADD CONSTRAINT "network_hardware_members_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_hardware_members" ADD CONSTRAINT "network_hardware_members_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_compute_id_compute_units_id_fk" FOREIGN KEY ("compute_id") REFERENCES "public"."compute_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_peers" ADD CONSTRAINT "network_peers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_peers" ADD CONSTRAINT "network_peers_peer_network_id_networks_id_fk" FOREIGN KEY ("peer_network_id") REFERENCES "public"."networks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_dependencies" ADD CONSTRAINT "service_dependencies_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_dependencies" ADD CONSTRAINT "service_dependencies_depends_on_id_services_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_external_dependencies" ADD CONSTRAINT "service_external_dependencies_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_external_dependencies" ADD CONSTRAINT "service_external_dependencies_external_node_id_external_nodes_id_fk" FOREIGN KEY ("external_node_id") REFERENCES "public"."external_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_misc" ADD CONSTRAINT "service_misc_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_misc" ADD CONSTRAINT "service_misc_misc_id_misc_items_id_fk" FOREIGN KEY ("misc_id") REFERENCES "public"."misc_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_storage" ADD CONSTRAINT "service_storage_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_storage" ADD CONSTRAINT "service_storage_storage_id_storage_id_fk" FOREIGN KEY ("storage_id") REFERENCES "public"."storage"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_compute_id_compute_units_id_fk" FOREIGN KEY ("compute_id") REFERENCES "public"."compute_units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage" ADD CONSTRAINT "storage_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vlans" ADD CONSTRAINT "vlans_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doc_entities" ADD CONSTRAINT "doc_entities_doc_id_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."docs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs" ADD CONSTRAINT "docs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_entities" ADD CONSTRAINT "map_entities_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topology_nodes" ADD CONSTRAINT "topology_nodes_topology_id_topologies_id_fk" FOREIGN KEY ("topology_id") REFERENCES "public"."topologies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cluster_members_pair_idx" ON "cluster_members" USING btree ("cluster_id","hardware_id");--> statement-breakpoint
CREATE INDEX "cluster_members_hw_idx" ON "cluster_members" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "compute_units_hardware_idx" ON "compute_units" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "compute_units_name_idx" ON "compute_units" USING btree ("name");--> statement-breakpoint
CREATE INDEX "compute_units_kind_idx" ON "compute_units" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "compute_units_name_trgm_idx" ON "compute_units" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "external_node_networks_pair_idx" ON "external_node_networks" USING btree ("external_node_id","network_id");--> statement-breakpoint
CREATE INDEX "hardware_name_idx" ON "hardware" USING btree ("name");--> statement-breakpoint
CREATE INDEX "hardware_status_idx" ON "hardware" USING btree ("status");--> statement-breakpoint
CREATE INDEX "hardware_env_idx" ON "hardware" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "hardware_name_trgm_idx" ON "hardware" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "hardware_tags_idx" ON "hardware" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "hardware_connections_pair_idx" ON "hardware_connections" USING btree ("source_hardware_id","target_hardware_id","connection_type");--> statement-breakpoint
CREATE INDEX "hardware_connections_target_idx" ON "hardware_connections" USING btree ("target_hardware_id");--> statement-breakpoint
CREATE INDEX "ip_addresses_network_idx" ON "ip_addresses" USING btree ("network_id");--> statement-breakpoint
CREATE INDEX "ip_addresses_assigned_idx" ON "ip_addresses" USING btree ("assigned_type","assigned_id");--> statement-breakpoint
CREATE INDEX "network_hardware_members_hw_idx" ON "network_hardware_members" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "network_members_compute_idx" ON "network_members" USING btree ("compute_id");--> statement-breakpoint
CREATE INDEX "network_peers_peer_idx" ON "network_peers" USING btree ("peer_network_id");--> statement-breakpoint
CREATE INDEX "networks_name_idx" ON "networks" USING btree ("name");--> statement-breakpoint
CREATE INDEX "networks_name_trgm_idx" ON "networks" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_dependencies_target_idx" ON "service_dependencies" USING btree ("depends_on_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_external_pair_idx" ON "service_external_dependencies" USING btree ("service_id","external_node_id");--> statement-breakpoint
CREATE INDEX "service_external_node_idx" ON "service_external_dependencies" USING btree ("external_node_id");--> statement-breakpoint
CREATE INDEX "service_misc_misc_idx" ON "service_misc" USING btree ("misc_id");--> statement-breakpoint
CREATE INDEX "service_storage_storage_idx" ON "service_storage" USING btree ("storage_id");--> statement-breakpoint
CREATE INDEX "services_name_idx" ON "services" USING btree ("name");--> statement-breakpoint
CREATE INDEX "services_status_idx" ON "services" USING btree ("status");--> statement-breakpoint
CREATE INDEX "services_hardware_idx" ON "services" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "services_compute_idx" ON "services" USING btree ("compute_id");--> statement-breakpoint
CREATE INDEX "services_env_idx" ON "services" USING btree ("environment");--> statement-breakpoint
CREATE INDEX "services_name_trgm_idx" ON "services" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "storage_hardware_idx" ON "storage" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "storage_name_idx" ON "storage" USING btree ("name");--> statement-breakpoint
CREATE INDEX "storage_name_trgm_idx" ON "storage" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "vlans_tag_site_idx" ON "vlans" USING btree ("vlan_id",coalesce("site_id", 0));--> statement-breakpoint
CREATE INDEX "doc_entities_entity_idx" ON "doc_entities" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "docs_title_trgm_idx" ON "docs" USING gin (lower("title") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_kind_name_idx" ON "uploads" USING btree ("kind","name");