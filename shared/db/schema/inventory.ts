// The inventory (spec 2.1, docs/architecture.md, API contracts field names): hardware, compute units, services and their
// dependencies, storage, networks, VLANs, IP addresses, clusters, external nodes, misc items, sites and
// the grouping labels. Foreign keys keep every edge pointing at something that exists; `version`
// carries optimistic concurrency (ETag / If-Match).
import { type AnyColumn, sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";

const versioned = { version: integer("version").notNull().default(1) };
const tagsColumn = { tags: text("tags").array().notNull().default(sql`'{}'::text[]`) };
/**
 * The values of the custom fields an administrator defined for the kind (custom_field_definitions),
 * `{name: value}`; checked against the definitions on every write that gives them (docs/adr/0495).
 */
const customFieldsColumn = { custom_fields: jsonb("custom_fields").$type<Record<string, unknown>>().notNull().default({}) };
/** `@>` containment on the values (the lists' cf_<name> filters); jsonb_path_ops is the smaller GIN opclass. */
const customFieldsIndex = (table: string, column: AnyColumn) =>
  index(`${table}_custom_fields_idx`).using("gin", sql`${column} jsonb_path_ops`);

export const sites = pgTable(
  "sites",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    description: text("description"),
    address: text("address"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    notes: text("notes"),
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("sites", t.custom_fields)],
);

export const environments = pgTable(
  "environments",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    color: text("color"),
    description: text("description"),
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("environments", t.custom_fields)],
);

export const categories = pgTable(
  "categories",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    color: text("color"),
    icon: text("icon"),
    description: text("description"),
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("categories", t.custom_fields)],
);

/** The unique tag set with colours; resources carry their tags as text arrays. */
export const tags = pgTable("tags", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  color: text("color"),
  ...timestamps,
});

/**
 * Racks at a site (issue 33, docs/racks.md, ADR 0480). Units are numbered 1..u_height whatever the
 * numbering: `numbering` says only whether unit 1 is drawn at the bottom (bottom_up, as NetBox) or the top.
 */
export const racks = pgTable(
  "racks",
  {
    id: serial("id").primaryKey(),
    site_id: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    u_height: integer("u_height").notNull().default(42),
    numbering: text("numbering").notNull().default("bottom_up"),
    width: integer("width").notNull().default(19),
    facility_id: text("facility_id"),
    description: text("description"),
    ...tagsColumn,
    ...versioned,
    ...timestamps,
  },
  (t) => [
    uniqueIndex("racks_site_name_idx").on(t.site_id, t.name),
    index("racks_name_idx").on(t.name),
    index("racks_tags_idx").using("gin", t.tags),
    check("racks_u_height_range", sql`${t.u_height} between 1 and 100`),
    check("racks_numbering", sql`${t.numbering} in ('bottom_up', 'top_down')`),
    check("racks_width", sql`${t.width} in (10, 19, 21, 23)`),
  ],
);

/** Units of a rack kept free on both faces, with the reason and who reserved them. */
export const rackReservations = pgTable(
  "rack_reservations",
  {
    id: serial("id").primaryKey(),
    rack_id: integer("rack_id")
      .notNull()
      .references(() => racks.id, { onDelete: "cascade" }),
    first_unit: integer("first_unit").notNull(),
    u_count: integer("u_count").notNull().default(1),
    reason: text("reason").notNull(),
    created_by: text("created_by"),
    ...versioned,
    ...timestamps,
  },
  (t) => [
    index("rack_reservations_rack_idx").on(t.rack_id),
    check("rack_reservations_units", sql`${t.first_unit} >= 1 and ${t.u_count} >= 1`),
  ],
);

export const hardware = pgTable(
  "hardware",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role"),
    vendor: text("vendor"),
    model: text("model"),
    cpu: text("cpu"),
    cpu_brand: text("cpu_brand"),
    memory_gb: doublePrecision("memory_gb"),
    ip_address: text("ip_address"),
    mac_address: text("mac_address"),
    status: text("status").notNull().default("unknown"),
    /** When `status` last changed: the status worker's "offline for more than 5 minutes" reads it. */
    status_changed_at: tz("status_changed_at"),
    status_override: text("status_override"),
    location: text("location"),
    u_height: integer("u_height"),
    rack_unit: integer("rack_unit"),
    /** The rack the node is mounted in; deleting a rack that holds nodes is refused (ADR 0480). */
    rack_id: integer("rack_id").references(() => racks.id, { onDelete: "restrict" }),
    /** front, rear or both (a full-depth node); set to front when a node is placed without one. */
    rack_face: text("rack_face"),
    environment_id: integer("environment_id").references(() => environments.id, { onDelete: "set null" }),
    site_id: integer("site_id").references(() => sites.id, { onDelete: "set null" }),
    vendor_catalog_key: text("vendor_catalog_key"),
    model_catalog_key: text("model_catalog_key"),
    notes: text("notes"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("hardware", t.custom_fields),
    index("hardware_name_idx").on(t.name),
    index("hardware_status_idx").on(t.status),
    index("hardware_env_idx").on(t.environment_id),
    index("hardware_rack_idx").on(t.rack_id),
    check("hardware_rack_face", sql`${t.rack_face} in ('front', 'rear', 'both')`),
    index("hardware_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("hardware_tags_idx").using("gin", t.tags),
    // Discovery matches findings by MAC, then address, then hostname (issue 13).
    index("hardware_mac_idx").on(sql`lower(${t.mac_address})`),
    index("hardware_ip_idx").on(t.ip_address),
    index("hardware_lower_name_idx").on(sql`lower(${t.name})`),
  ],
);

export const hardwareConnections = pgTable(
  "hardware_connections",
  {
    id: serial("id").primaryKey(),
    source_hardware_id: integer("source_hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    target_hardware_id: integer("target_hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    connection_type: text("connection_type").notNull().default("ethernet"),
    bandwidth_mbps: integer("bandwidth_mbps"),
    notes: text("notes"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("hardware_connections_pair_idx").on(t.source_hardware_id, t.target_hardware_id, t.connection_type),
    index("hardware_connections_target_idx").on(t.target_hardware_id),
    check("hardware_connections_not_self", sql`${t.source_hardware_id} <> ${t.target_hardware_id}`),
  ],
);

export const computeUnits = pgTable(
  "compute_units",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "restrict" }),
    memory_mb: integer("memory_mb"),
    cpu_cores: doublePrecision("cpu_cores"),
    disk_gb: doublePrecision("disk_gb"),
    ip_address: text("ip_address"),
    status: text("status").notNull().default("unknown"),
    os: text("os"),
    icon_slug: text("icon_slug"),
    environment_id: integer("environment_id").references(() => environments.id, { onDelete: "set null" }),
    notes: text("notes"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("compute_units", t.custom_fields),
    index("compute_units_hardware_idx").on(t.hardware_id),
    index("compute_units_name_idx").on(t.name),
    index("compute_units_kind_idx").on(t.kind),
    index("compute_units_ip_idx").on(t.ip_address),
    index("compute_units_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    check("compute_units_kind", sql`${t.kind} in ('vm', 'container')`),
  ],
);

export const services = pgTable(
  "services",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    environment: text("environment"),
    environment_id: integer("environment_id").references(() => environments.id, { onDelete: "set null" }),
    status: text("status").notNull().default("running"),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "restrict" }),
    compute_id: integer("compute_id").references(() => computeUnits.id, { onDelete: "restrict" }),
    category_id: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    url: text("url"),
    ip_address: text("ip_address"),
    ports: jsonb("ports").$type<{ ip?: string | null; port: number; protocol?: string; label?: string | null }[]>().notNull().default([]),
    description: text("description"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("services", t.custom_fields),
    index("services_name_idx").on(t.name),
    index("services_status_idx").on(t.status),
    index("services_hardware_idx").on(t.hardware_id),
    index("services_compute_idx").on(t.compute_id),
    index("services_env_idx").on(t.environment),
    index("services_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

export const serviceDependencies = pgTable(
  "service_dependencies",
  {
    service_id: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    depends_on_id: integer("depends_on_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    created_at: timestamps.created_at,
  },
  (t) => [
    primaryKey({ columns: [t.service_id, t.depends_on_id] }),
    // The dependent is in the key so the blast-radius walk reads dependents from the index alone.
    index("service_dependencies_target_idx").on(t.depends_on_id, t.service_id),
    check("service_dependencies_not_self", sql`${t.service_id} <> ${t.depends_on_id}`),
  ],
);

export const storage = pgTable(
  "storage",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    capacity_gb: doublePrecision("capacity_gb"),
    used_gb: doublePrecision("used_gb"),
    hardware_id: integer("hardware_id").references(() => hardware.id, { onDelete: "restrict" }),
    path: text("path"),
    notes: text("notes"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("storage", t.custom_fields),
    index("storage_hardware_idx").on(t.hardware_id),
    index("storage_name_idx").on(t.name),
    index("storage_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    check("storage_kind", sql`${t.kind} in ('disk', 'pool', 'dataset', 'share')`),
  ],
);

export const serviceStorage = pgTable(
  "service_storage",
  {
    service_id: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    storage_id: integer("storage_id")
      .notNull()
      .references(() => storage.id, { onDelete: "cascade" }),
    mount_path: text("mount_path"),
  },
  (t) => [primaryKey({ columns: [t.service_id, t.storage_id] }), index("service_storage_storage_idx").on(t.storage_id)],
);

export const vlans = pgTable(
  "vlans",
  {
    id: serial("id").primaryKey(),
    vlan_id: integer("vlan_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    site_id: integer("site_id").references(() => sites.id, { onDelete: "set null" }),
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("vlans", t.custom_fields),
    uniqueIndex("vlans_tag_site_idx").on(t.vlan_id, sql`coalesce(${t.site_id}, 0)`),
    check("vlans_range", sql`${t.vlan_id} between 1 and 4094`),
  ],
);

export const networks = pgTable(
  "networks",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    cidr: text("cidr"),
    vlan_id: integer("vlan_id"),
    gateway: text("gateway"),
    dns_servers: text("dns_servers").array(),
    description: text("description"),
    site_id: integer("site_id").references(() => sites.id, { onDelete: "set null" }),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("networks", t.custom_fields),
    index("networks_name_idx").on(t.name),
    index("networks_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

export const networkMembers = pgTable(
  "network_members",
  {
    network_id: integer("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    compute_id: integer("compute_id")
      .notNull()
      .references(() => computeUnits.id, { onDelete: "cascade" }),
    ip_address: text("ip_address"),
  },
  (t) => [primaryKey({ columns: [t.network_id, t.compute_id] }), index("network_members_compute_idx").on(t.compute_id)],
);

export const networkHardwareMembers = pgTable(
  "network_hardware_members",
  {
    network_id: integer("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    hardware_id: integer("hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    ip_address: text("ip_address"),
  },
  (t) => [primaryKey({ columns: [t.network_id, t.hardware_id] }), index("network_hardware_members_hw_idx").on(t.hardware_id)],
);

export const networkPeers = pgTable(
  "network_peers",
  {
    network_id: integer("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    peer_network_id: integer("peer_network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    description: text("description"),
  },
  (t) => [
    primaryKey({ columns: [t.network_id, t.peer_network_id] }),
    index("network_peers_peer_idx").on(t.peer_network_id),
    check("network_peers_not_self", sql`${t.network_id} <> ${t.peer_network_id}`),
  ],
);

export const ipAddresses = pgTable(
  "ip_addresses",
  {
    id: serial("id").primaryKey(),
    address: text("address").notNull().unique(),
    network_id: integer("network_id").references(() => networks.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("allocated"),
    hostname: text("hostname"),
    mac_address: text("mac_address"),
    assigned_type: text("assigned_type"),
    assigned_id: integer("assigned_id"),
    description: text("description"),
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [
    customFieldsIndex("ip_addresses", t.custom_fields),
    index("ip_addresses_network_idx").on(t.network_id),
    index("ip_addresses_assigned_idx").on(t.assigned_type, t.assigned_id),
  ],
);

export const hardwareClusters = pgTable(
  "hardware_clusters",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    type: text("type"),
    description: text("description"),
    environment_id: integer("environment_id").references(() => environments.id, { onDelete: "set null" }),
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("hardware_clusters", t.custom_fields)],
);

export const clusterMembers = pgTable(
  "cluster_members",
  {
    id: serial("id").primaryKey(),
    cluster_id: integer("cluster_id")
      .notNull()
      .references(() => hardwareClusters.id, { onDelete: "cascade" }),
    hardware_id: integer("hardware_id")
      .notNull()
      .references(() => hardware.id, { onDelete: "cascade" }),
    role: text("role"),
    ...timestamps,
  },
  (t) => [uniqueIndex("cluster_members_pair_idx").on(t.cluster_id, t.hardware_id), index("cluster_members_hw_idx").on(t.hardware_id)],
);

export const externalNodes = pgTable(
  "external_nodes",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    provider: text("provider"),
    kind: text("kind"),
    region: text("region"),
    ip_address: text("ip_address"),
    url: text("url"),
    notes: text("notes"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("external_nodes", t.custom_fields)],
);

export const externalNodeNetworks = pgTable(
  "external_node_networks",
  {
    id: serial("id").primaryKey(),
    external_node_id: integer("external_node_id")
      .notNull()
      .references(() => externalNodes.id, { onDelete: "cascade" }),
    network_id: integer("network_id")
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    link_type: text("link_type"),
  },
  (t) => [uniqueIndex("external_node_networks_pair_idx").on(t.external_node_id, t.network_id)],
);

export const serviceExternalDependencies = pgTable(
  "service_external_dependencies",
  {
    id: serial("id").primaryKey(),
    service_id: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    external_node_id: integer("external_node_id")
      .notNull()
      .references(() => externalNodes.id, { onDelete: "cascade" }),
    description: text("description"),
  },
  (t) => [
    uniqueIndex("service_external_pair_idx").on(t.service_id, t.external_node_id),
    index("service_external_node_idx").on(t.external_node_id),
  ],
);

export const miscItems = pgTable(
  "misc_items",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind"),
    description: text("description"),
    url: text("url"),
    ...tagsColumn,
    ...versioned,
    ...customFieldsColumn,
    ...timestamps,
  },
  (t) => [customFieldsIndex("misc_items", t.custom_fields)],
);

export const serviceMisc = pgTable(
  "service_misc",
  {
    service_id: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "cascade" }),
    misc_id: integer("misc_id")
      .notNull()
      .references(() => miscItems.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.service_id, t.misc_id] }), index("service_misc_misc_idx").on(t.misc_id)],
);

/**
 * Where an inventory row came from in another system: a Docker container or network, a Proxmox guest.
 * A sync matches its objects by (source, external_id) here instead of by name, so a rename on either side
 * updates the same row; `attributes` keeps what the source said that has no inventory column (driver, ...).
 */
export const externalRefs = pgTable(
  "external_refs",
  {
    id: serial("id").primaryKey(),
    /** docker | proxmox | ... plus the instance, e.g. "docker:/var/run/docker.sock". */
    source: text("source").notNull(),
    external_id: text("external_id").notNull(),
    /** hardware | compute_unit | service | network */
    entity_type: text("entity_type").notNull(),
    entity_id: integer("entity_id").notNull(),
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull().default({}),
    last_seen_at: tz("last_seen_at").notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("external_refs_source_idx").on(t.source, t.external_id),
    index("external_refs_entity_idx").on(t.entity_type, t.entity_id),
  ],
);
