// The kinds of the inventory export document (spec/catalogue.tsv, group admin): each document key
// mapped onto one of our tables, with its key, the references its rows make, its unique columns and
// the row schema an import validates it with. The columns come from the drizzle table itself, so a
// column added to a table is exported and imported without touching this file. docs/export-import.md.
import { getTableColumns, getTableName, is, SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import * as v from "valibot";
import {
  cables,
  categories,
  clusterMembers,
  computeUnits,
  customFieldDefinitions,
  docEntities,
  docs,
  environments,
  externalNodeNetworks,
  externalNodes,
  frontPorts,
  hardware,
  hardwareClusters,
  hardwareConnections,
  interfaces,
  ipAddresses,
  journalEntries,
  miscItems,
  networkHardwareMembers,
  networkMembers,
  networkPeers,
  networks,
  rackReservations,
  racks,
  powerOutlets,
  powerPorts,
  prefixes,
  rearPorts,
  serviceDependencies,
  serviceExternalDependencies,
  serviceMisc,
  services,
  serviceStorage,
  sites,
  storage,
  tags,
  vlans,
  vrfs,
} from "../../db/schema/index.ts";
import {
  CableCreate,
  FrontPortCreate,
  InterfaceCreate,
  PowerOutletCreate,
  PowerPortCreate,
  RearPortCreate,
} from "../../schemas/cabling.ts";
import { ClusterCreate } from "../../schemas/clusters.ts";
import { ComputeUnitCreate } from "../../schemas/compute-units.ts";
import { DocCreate } from "../../schemas/docs.ts";
import { ExternalNodeCreate } from "../../schemas/external-nodes.ts";
import { MAX_INT4 } from "../../schemas/fields.ts";
import { HardwareCreate } from "../../schemas/hardware.ts";
import { IpCreate } from "../../schemas/ipam.ts";
import { JournalCreate } from "../../schemas/journal.ts";
import { CategoryCreate, Color, EnvironmentCreate } from "../../schemas/labels.ts";
import { MiscCreate } from "../../schemas/misc.ts";
import { NetworkCreate } from "../../schemas/networks.ts";
import { RackCreate, RackReservationCreate } from "../../schemas/racks.ts";
import { PrefixCreate } from "../../schemas/prefixes.ts";
import { ServiceCreate } from "../../schemas/services.ts";
import { SiteCreate } from "../../schemas/sites.ts";
import { StorageCreate } from "../../schemas/storage.ts";
import { VlanCreate } from "../../schemas/vlans.ts";
import { VrfCreate } from "../../schemas/vrfs.ts";
import { slugify } from "../inventory/services/slug.ts";
import { CUSTOM_FIELD_NAME, CUSTOM_FIELD_TYPES } from "../../domain/custom-fields.ts";

/** The document's `version` (the reference's) and our own marker of the row shapes. */
export const EXPORT_VERSION = 2;
export const EXPORT_FORMAT = "infra-control-plane/inventory@1";

/** A cable end's kind -> the document key of its table. */
const CABLE_END_KINDS: Record<string, string> = {
  interface: "interfaces",
  front_port: "front_ports",
  rear_port: "rear_ports",
  power_port: "power_ports",
  power_outlet: "power_outlets",
};

/** A polymorphic reference: `entity_type` names the kind, `entity_id` the row. */
export interface PolyRef {
  typeColumn: string;
  idColumn: string;
  kinds: Record<string, string>;
}

export interface Kind {
  /** The document key. */
  key: string;
  table: PgTable;
  /** The SQL table name. */
  name: string;
  /** Primary key columns; ["id"] for the entity tables. */
  pk: string[];
  /** Column -> document key of the kind it references. */
  refs: Record<string, string>;
  poly?: PolyRef | PolyRef[];
  /** Column sets that must be unique across rows (checked to name the conflicting ids). */
  unique: string[][];
  /** Exported, imported column names, in table order. */
  columns: string[];
  /** The row schema: the create verb's field rules plus the read-only columns. */
  schema: v.GenericSchema<unknown, Record<string, unknown>>;
  /** The entity_type other rows name this kind by (doc_entities, entity_tags), when they can. */
  entityType?: string;
  /** Whether rows carry a `tags` text array (entity_tags derives from it). */
  tagged: boolean;
  /** Fills what a reference-format row may lack (a service's slug) before validation. */
  fill?: (row: Record<string, unknown>) => void;
}

type Entries = v.ObjectEntries;

/** The field rules of a create body built by `writeBody` (its first pipe item is the object schema). */
function createEntries(schema: unknown): Entries {
  const first = (schema as { pipe: { entries: Entries }[] }).pipe[0]!;
  return first.entries;
}

const Int = v.pipe(v.number(), v.integer("Must be an integer."), v.minValue(-2_147_483_648), v.maxValue(MAX_INT4));
const Id = v.pipe(
  v.number(),
  v.integer("Must be an integer id."),
  v.minValue(1, "Must be a positive integer id."),
  v.maxValue(MAX_INT4, `Must be at most ${MAX_INT4}.`),
);
const Timestamp = v.pipe(
  v.string(),
  v.maxLength(64),
  v.check((s) => !Number.isNaN(Date.parse(s)), "Not a timestamp."),
);

/** The rule of a column the create body does not write, from its SQL type. */
function columnRule(column: PgColumn): v.GenericSchema {
  const type = column.getSQLType();
  if (type === "serial" || type === "integer") return column.name.endsWith("id") ? Id : Int;
  if (type === "double precision") return v.pipe(v.number(), v.finite());
  if (type === "boolean") return v.boolean();
  if (type === "text[]") return v.pipe(v.array(v.pipe(v.string(), v.maxLength(2000))), v.maxLength(1000));
  if (type === "jsonb") return v.unknown();
  if (type.startsWith("timestamp")) return Timestamp;
  return v.pipe(v.string(), v.maxLength(100_000));
}

/** The value a not-null column with a database default takes when a row leaves it out. */
export function columnDefault(column: PgColumn, now: Date): unknown {
  if (column.default !== undefined && !is(column.default, SQL)) return column.default;
  const type = column.getSQLType();
  if (type.startsWith("timestamp")) return now.toISOString();
  if (type === "text[]") return [];
  return undefined;
}

interface KindSpec {
  key: string;
  table: PgTable;
  pk?: string[];
  refs?: Record<string, string>;
  poly?: PolyRef | PolyRef[];
  unique?: string[][];
  create?: unknown;
  /** Rules replacing the create body's or the generic ones. */
  rules?: Entries;
  omit?: string[];
  entityType?: string;
  /** Fills what a reference-format row may lack (a service's slug) before validation. */
  fill?: (row: Record<string, unknown>) => void;
}

function kind(spec: KindSpec): Kind {
  const all = getTableColumns(spec.table) as Record<string, PgColumn>;
  const omit = new Set(spec.omit ?? []);
  const columns = Object.values(all)
    .map((c) => c.name)
    .filter((n) => !omit.has(n));
  const pk = spec.pk ?? ["id"];
  const given = { ...(spec.create ? createEntries(spec.create) : {}), ...spec.rules };
  const entries: Entries = {};
  for (const column of Object.values(all)) {
    if (omit.has(column.name)) continue;
    const base = pk.includes(column.name) ? columnRule(column) : (given[column.name] ?? columnRule(column));
    // Optional unless the column is not null without a default; null only where the column allows it.
    const required = pk.includes(column.name) || (column.notNull && !column.hasDefault && !(spec.fill && column.name === "slug"));
    const unwrapped = base.type === "optional" ? (base as v.OptionalSchema<v.GenericSchema, unknown>).wrapped : base;
    entries[column.name] = required ? unwrapped : v.optional(column.notNull ? unwrapped : v.nullable(unwrapped));
  }
  return {
    key: spec.key,
    table: spec.table,
    name: getTableName(spec.table),
    pk,
    refs: spec.refs ?? {},
    ...(spec.poly ? { poly: spec.poly } : {}),
    unique: spec.unique ?? [],
    columns,
    // Unknown keys are dropped: a reference document carries fields we have no column for.
    schema: v.object(entries) as unknown as v.GenericSchema<unknown, Record<string, unknown>>,
    ...(spec.entityType ? { entityType: spec.entityType } : {}),
    tagged: columns.includes("tags"),
    ...(spec.fill ? { fill: spec.fill } : {}),
  };
}

const ENTITY_KINDS: Record<string, string> = {
  hardware: "hardware",
  compute_unit: "compute_units",
  service: "services",
  storage: "storage",
  network: "networks",
  cluster: "hardware_clusters",
  external_node: "external_nodes",
  misc: "misc_items",
};

/** The kinds a journal entry's object_type names (every inventory kind, docs/adr/0485). */
const JOURNAL_OBJECT_KINDS: Record<string, string> = {
  ...ENTITY_KINDS,
  site: "sites",
  vlan: "vlans",
  ip_address: "ip_addresses",
  environment: "environments",
  category: "categories",
};

/**
 * Every kind in import order: a kind comes after the kinds it references, so a reference is checked
 * against the database once its target kind is written. The reference's keys first, then ours.
 */
export const KINDS: Kind[] = [
  // The custom field definitions the objects' custom_fields values are of (docs/custom-fields.md).
  kind({
    key: "custom_fields",
    table: customFieldDefinitions,
    rules: { name: v.pipe(v.string(), v.regex(CUSTOM_FIELD_NAME), v.maxLength(60)), type: v.picklist(CUSTOM_FIELD_TYPES) },
    unique: [["name"]],
  }),
  kind({ key: "sites", table: sites, create: SiteCreate, unique: [["name"]] }),
  kind({ key: "environments", table: environments, create: EnvironmentCreate, unique: [["name"]] }),
  kind({ key: "categories", table: categories, create: CategoryCreate, unique: [["name"]] }),
  kind({
    key: "tags",
    table: tags,
    rules: { name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)), color: Color },
    unique: [["name"]],
  }),
  // Racks and their reservations before the hardware mounted in them (docs/racks.md).
  kind({ key: "racks", table: racks, create: RackCreate, refs: { site_id: "sites" }, unique: [["site_id", "name"]] }),
  kind({
    key: "rack_reservations",
    table: rackReservations,
    create: RackReservationCreate,
    refs: { rack_id: "racks" },
    // Users are not exported, so neither is who made a reservation (as with documents).
    omit: ["created_by"],
  }),
  kind({
    key: "hardware",
    table: hardware,
    create: HardwareCreate,
    refs: { environment_id: "environments", site_id: "sites", rack_id: "racks" },
    entityType: "hardware",
  }),
  kind({
    key: "hardware_connections",
    table: hardwareConnections,
    refs: { source_hardware_id: "hardware", target_hardware_id: "hardware" },
    unique: [["source_hardware_id", "target_hardware_id", "connection_type"]],
  }),
  // Ports and cables (docs/ports-and-cables.md). A lag member's lag_id and a front port's rear port are
  // checked by the database's foreign keys (a lag is in the same list as its members).
  kind({
    key: "interfaces",
    table: interfaces,
    create: InterfaceCreate,
    refs: { hardware_id: "hardware" },
    unique: [["hardware_id", "name"]],
  }),
  kind({
    key: "rear_ports",
    table: rearPorts,
    create: RearPortCreate,
    refs: { hardware_id: "hardware" },
    unique: [["hardware_id", "name"]],
  }),
  kind({
    key: "front_ports",
    table: frontPorts,
    create: FrontPortCreate,
    refs: { hardware_id: "hardware", rear_port_id: "rear_ports" },
    unique: [["hardware_id", "name"]],
  }),
  kind({
    key: "power_ports",
    table: powerPorts,
    create: PowerPortCreate,
    refs: { hardware_id: "hardware" },
    unique: [["hardware_id", "name"]],
  }),
  kind({
    key: "power_outlets",
    table: powerOutlets,
    create: PowerOutletCreate,
    refs: { hardware_id: "hardware" },
    unique: [["hardware_id", "name"]],
  }),
  kind({
    key: "cables",
    table: cables,
    create: CableCreate,
    refs: { connection_id: "hardware_connections" },
    poly: [
      { typeColumn: "a_kind", idColumn: "a_id", kinds: CABLE_END_KINDS },
      { typeColumn: "b_kind", idColumn: "b_id", kinds: CABLE_END_KINDS },
    ],
    unique: [
      ["a_kind", "a_id"],
      ["b_kind", "b_id"],
    ],
  }),
  kind({
    key: "compute_units",
    table: computeUnits,
    create: ComputeUnitCreate,
    refs: { hardware_id: "hardware", environment_id: "environments" },
    entityType: "compute_unit",
  }),
  kind({ key: "storage", table: storage, create: StorageCreate, refs: { hardware_id: "hardware" }, entityType: "storage" }),
  kind({ key: "vlans", table: vlans, create: VlanCreate, refs: { site_id: "sites" } }),
  kind({ key: "vrfs", table: vrfs, create: VrfCreate, unique: [["name"]] }),
  kind({ key: "prefixes", table: prefixes, create: PrefixCreate, refs: { vrf_id: "vrfs", site_id: "sites", vlan_id: "vlans" } }),
  kind({ key: "networks", table: networks, create: NetworkCreate, refs: { site_id: "sites" }, entityType: "network" }),
  kind({ key: "ip_addresses", table: ipAddresses, create: IpCreate, refs: { network_id: "networks" }, unique: [["address"]] }),
  kind({
    key: "network_peers",
    table: networkPeers,
    pk: ["network_id", "peer_network_id"],
    refs: { network_id: "networks", peer_network_id: "networks" },
  }),
  kind({
    key: "services",
    table: services,
    create: ServiceCreate,
    refs: { environment_id: "environments", hardware_id: "hardware", compute_id: "compute_units", category_id: "categories" },
    unique: [["slug"]],
    entityType: "service",
    fill: (row) => {
      if (row.slug === undefined && typeof row.name === "string") row.slug = `${slugify(row.name)}-${String(row.id)}`;
    },
  }),
  kind({
    key: "service_dependencies",
    table: serviceDependencies,
    pk: ["service_id", "depends_on_id"],
    refs: { service_id: "services", depends_on_id: "services" },
  }),
  kind({
    key: "service_storage",
    table: serviceStorage,
    pk: ["service_id", "storage_id"],
    refs: { service_id: "services", storage_id: "storage" },
  }),
  kind({ key: "misc_items", table: miscItems, create: MiscCreate, entityType: "misc" }),
  kind({ key: "service_misc", table: serviceMisc, pk: ["service_id", "misc_id"], refs: { service_id: "services", misc_id: "misc_items" } }),
  kind({
    key: "hardware_networks",
    table: networkHardwareMembers,
    pk: ["network_id", "hardware_id"],
    refs: { network_id: "networks", hardware_id: "hardware" },
  }),
  kind({
    key: "compute_networks",
    table: networkMembers,
    pk: ["network_id", "compute_id"],
    refs: { network_id: "networks", compute_id: "compute_units" },
  }),
  kind({
    key: "hardware_clusters",
    table: hardwareClusters,
    create: ClusterCreate,
    refs: { environment_id: "environments" },
    unique: [["name"]],
    entityType: "cluster",
  }),
  kind({
    key: "hardware_cluster_members",
    table: clusterMembers,
    refs: { cluster_id: "hardware_clusters", hardware_id: "hardware" },
    unique: [["cluster_id", "hardware_id"]],
  }),
  kind({ key: "external_nodes", table: externalNodes, create: ExternalNodeCreate, entityType: "external_node" }),
  kind({
    key: "external_node_networks",
    table: externalNodeNetworks,
    refs: { external_node_id: "external_nodes", network_id: "networks" },
    unique: [["external_node_id", "network_id"]],
  }),
  kind({
    key: "service_external_nodes",
    table: serviceExternalDependencies,
    refs: { service_id: "services", external_node_id: "external_nodes" },
    unique: [["service_id", "external_node_id"]],
  }),
  // Users are not exported, so neither is who wrote a document.
  kind({ key: "docs", table: docs, create: DocCreate, omit: ["created_by"] }),
  kind({
    key: "entity_docs",
    table: docEntities,
    pk: ["doc_id", "entity_type", "entity_id"],
    refs: { doc_id: "docs" },
    poly: { typeColumn: "entity_type", idColumn: "entity_id", kinds: ENTITY_KINDS },
    rules: { entity_type: v.picklist(Object.keys(ENTITY_KINDS), `Must be one of: ${Object.keys(ENTITY_KINDS).join(", ")}.`) },
  }),
  // Users are not exported, so neither is who wrote an entry: an imported entry has no author.
  kind({
    key: "journal_entries",
    table: journalEntries,
    create: JournalCreate,
    omit: ["created_by"],
    poly: { typeColumn: "object_type", idColumn: "object_id", kinds: JOURNAL_OBJECT_KINDS },
  }),
];

export const KIND_BY_KEY = new Map(KINDS.map((k) => [k.key, k]));

/** Document keys in the order the export writes them: the reference's, then ours. */
export const EXPORT_ORDER = [
  "hardware",
  "compute_units",
  "services",
  "storage",
  "networks",
  "misc_items",
  "docs",
  "tags",
  "entity_tags",
  "entity_docs",
  "service_dependencies",
  "service_storage",
  "service_misc",
  "hardware_networks",
  "compute_networks",
  "hardware_clusters",
  "hardware_cluster_members",
  "external_nodes",
  "external_node_networks",
  "service_external_nodes",
  "sites",
  "environments",
  "categories",
  "vlans",
  "ip_addresses",
  "hardware_connections",
  "network_peers",
  "racks",
  "rack_reservations",
  "vrfs",
  "prefixes",
  "custom_fields",
  "interfaces",
  "rear_ports",
  "front_ports",
  "power_ports",
  "power_outlets",
  "cables",
  "journal_entries",
] as const;

/** The kinds whose rows carry tags, by the entity_type entity_tags names them with. */
export const TAGGED_KINDS = KINDS.filter((k) => k.tagged && k.entityType);
