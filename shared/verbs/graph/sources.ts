// Where every graph node and edge comes from (docs/architecture.md, API contracts): one table for nodes and one for
// edges, shared by the whole-inventory graph and the topology export so both always agree.
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { computeUnits, externalNodes, hardware, hardwareClusters, miscItems, networks, services, storage } from "../../db/schema/index.ts";
import { type EdgeKind, NODE_PREFIX, NODE_TYPES, type NodeType } from "../../domain/graph-ids.ts";

export interface NodeSource {
  table: PgTable;
  id: AnyPgColumn;
  name: AnyPgColumn;
  status: SQL | null;
  subtitle: AnyPgColumn;
}

export const NODE_SOURCES: Record<NodeType, NodeSource> = {
  hardware: {
    table: hardware,
    id: hardware.id,
    name: hardware.name,
    status: sql`coalesce(${hardware.status_override}, ${hardware.status})`,
    subtitle: hardware.role,
  },
  compute_unit: {
    table: computeUnits,
    id: computeUnits.id,
    name: computeUnits.name,
    status: sql`${computeUnits.status}`,
    subtitle: computeUnits.kind,
  },
  service: { table: services, id: services.id, name: services.name, status: sql`${services.status}`, subtitle: services.slug },
  storage: { table: storage, id: storage.id, name: storage.name, status: null, subtitle: storage.kind },
  network: { table: networks, id: networks.id, name: networks.name, status: null, subtitle: networks.cidr },
  misc: { table: miscItems, id: miscItems.id, name: miscItems.name, status: null, subtitle: miscItems.kind },
  external_node: { table: externalNodes, id: externalNodes.id, name: externalNodes.name, status: null, subtitle: externalNodes.provider },
  cluster: { table: hardwareClusters, id: hardwareClusters.id, name: hardwareClusters.name, status: null, subtitle: hardwareClusters.type },
};

/** Every node of the chosen types in one statement: (type, id, name, status, subtitle). */
export function nodesSql(types: readonly NodeType[] = NODE_TYPES): SQL {
  return sql.join(
    types.map((t) => {
      const s = NODE_SOURCES[t];
      return sql`select ${t}::text as type, ${s.id} as id, ${s.name}::text as name, ${s.status ?? sql`null`}::text as status, ${s.subtitle}::text as subtitle from ${s.table}`;
    }),
    sql` union all `,
  );
}

/** [kind, key a, key b (pair kinds), source (type, column), target (type, column), from + where] */
type EdgeSource = [EdgeKind, string, string | null, [NodeType, string], [NodeType, string], string];

export const EDGE_SOURCES: EdgeSource[] = [
  ["hh", "id", null, ["hardware", "source_hardware_id"], ["hardware", "target_hardware_id"], "hardware_connections"],
  ["hc", "id", null, ["hardware", "hardware_id"], ["compute_unit", "id"], "compute_units where hardware_id is not null"],
  ["hs", "id", null, ["hardware", "hardware_id"], ["service", "id"], "services where hardware_id is not null and compute_id is null"],
  ["cs", "id", null, ["compute_unit", "compute_id"], ["service", "id"], "services where compute_id is not null"],
  ["ss", "service_id", "depends_on_id", ["service", "service_id"], ["service", "depends_on_id"], "service_dependencies"],
  ["hn", "network_id", "hardware_id", ["hardware", "hardware_id"], ["network", "network_id"], "network_hardware_members"],
  ["cn", "network_id", "compute_id", ["compute_unit", "compute_id"], ["network", "network_id"], "network_members"],
  ["cl", "id", null, ["hardware", "hardware_id"], ["cluster", "cluster_id"], "cluster_members"],
  ["hst", "id", null, ["hardware", "hardware_id"], ["storage", "id"], "storage where hardware_id is not null"],
  ["sst", "service_id", "storage_id", ["service", "service_id"], ["storage", "storage_id"], "service_storage"],
  ["sm", "service_id", "misc_id", ["service", "service_id"], ["misc", "misc_id"], "service_misc"],
  ["se", "id", null, ["service", "service_id"], ["external_node", "external_node_id"], "service_external_dependencies"],
  ["en", "id", null, ["external_node", "external_node_id"], ["network", "network_id"], "external_node_networks"],
  ["nn", "network_id", "peer_network_id", ["network", "network_id"], ["network", "peer_network_id"], "network_peers"],
];

/**
 * Every edge whose two ends are of the chosen types, in one statement: (kind, a, b, source, target) with
 * the ends as node ids ("hw-1").
 */
export function edgesSql(types: readonly NodeType[] = NODE_TYPES): SQL {
  const wanted = new Set(types);
  const node = ([type, column]: [NodeType, string]) => `'${NODE_PREFIX[type]}-' || ${column}`;
  return sql.raw(
    EDGE_SOURCES.filter(([, , , s, t]) => wanted.has(s[0]) && wanted.has(t[0]))
      .map(
        ([kind, a, b, s, t, from]) =>
          `select '${kind}' as kind, ${a} as a, ${b ?? "null::int"} as b, ${node(s)} as source, ${node(t)} as target from ${from}`,
      )
      .join(" union all ") ||
      "select null::text as kind, null::int as a, null::int as b, null::text as source, null::text as target where false",
  );
}
