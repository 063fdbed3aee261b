// GET /topologies/{topology_id}/graph: the topology's nodes with their current label and status from the
// inventory (one query per node type present), and the inventory's edges whose two ends are both in the
// topology (one statement). Nodes whose object has since been deleted are listed in `missing`.
import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import { queryRows } from "../../db/database.ts";
import {
  computeUnits, externalNodes, hardware, hardwareClusters, miscItems, networks, services, storage, topologies, topologyNodes,
} from "../../db/schema/index.ts";
import { EDGE_KINDS, type EdgeKind, edgeId, NODE_ID, NODE_PREFIX, nodeId, type NodeType, parseNodeId } from "../../domain/graph-ids.ts";
import { ApiError } from "../../errors.ts";
import type { ServiceContext } from "../context.ts";
import type { GraphNode } from "../graph/topology.ts";
import { requireScope } from "../verb.ts";

interface NodeSource {
  table: PgTable;
  id: AnyPgColumn;
  name: AnyPgColumn;
  status: SQL | null;
  subtitle: AnyPgColumn;
}

const SOURCES: Record<NodeType, NodeSource> = {
  hardware: { table: hardware, id: hardware.id, name: hardware.name, status: sql`coalesce(${hardware.status_override}, ${hardware.status})`, subtitle: hardware.role },
  compute_unit: { table: computeUnits, id: computeUnits.id, name: computeUnits.name, status: sql`${computeUnits.status}`, subtitle: computeUnits.kind },
  service: { table: services, id: services.id, name: services.name, status: sql`${services.status}`, subtitle: services.slug },
  storage: { table: storage, id: storage.id, name: storage.name, status: null, subtitle: storage.kind },
  network: { table: networks, id: networks.id, name: networks.name, status: null, subtitle: networks.cidr },
  misc: { table: miscItems, id: miscItems.id, name: miscItems.name, status: null, subtitle: miscItems.kind },
  external_node: { table: externalNodes, id: externalNodes.id, name: externalNodes.name, status: null, subtitle: externalNodes.provider },
  cluster: { table: hardwareClusters, id: hardwareClusters.id, name: hardwareClusters.name, status: null, subtitle: hardwareClusters.type },
};

export type InventoryNode = Omit<GraphNode, "position">;

/** node id -> current label/status of the objects these node ids name, one query per type present. */
export async function inventoryNodes(db: Db, ids: string[]): Promise<Map<string, InventoryNode>> {
  const byType = new Map<NodeType, number[]>();
  for (const parsed of ids.map(parseNodeId)) if (parsed) byType.set(parsed.type, [...(byType.get(parsed.type) ?? []), parsed.id]);
  const found = await Promise.all(
    [...byType].map(async ([type, refs]) => {
      const src = SOURCES[type];
      const rows = (await db
        .select({ id: src.id, name: src.name, status: src.status ?? sql<null>`null`, subtitle: src.subtitle })
        .from(src.table)
        .where(inArray(src.id, refs))) as { id: number; name: string; status: string | null; subtitle: string | null }[];
      return rows.map((r): InventoryNode => ({ id: nodeId(type, r.id), type, label: r.name, ref_id: r.id, status: r.status, subtitle: r.subtitle }));
    }),
  );
  return new Map(found.flat().map((n) => [n.id, n]));
}

const p = (type: NodeType, column: string) => `'${NODE_PREFIX[type]}-' || ${column}`;

// Every relation of DESIGN.md 3 "Graph" (kinds and keys as in shared/domain/graph-ids.ts), each end as a node id.
const EDGE_SOURCES: [EdgeKind, string, string | null, string, string, string][] = [
  ["hh", "id", null, p("hardware", "source_hardware_id"), p("hardware", "target_hardware_id"), "hardware_connections"],
  ["hc", "id", null, p("hardware", "hardware_id"), p("compute_unit", "id"), "compute_units where hardware_id is not null"],
  ["hs", "id", null, p("hardware", "hardware_id"), p("service", "id"), "services where hardware_id is not null and compute_id is null"],
  ["cs", "id", null, p("compute_unit", "compute_id"), p("service", "id"), "services where compute_id is not null"],
  ["ss", "service_id", "depends_on_id", p("service", "service_id"), p("service", "depends_on_id"), "service_dependencies"],
  ["hn", "network_id", "hardware_id", p("hardware", "hardware_id"), p("network", "network_id"), "network_hardware_members"],
  ["cn", "network_id", "compute_id", p("compute_unit", "compute_id"), p("network", "network_id"), "network_members"],
  ["cl", "id", null, p("hardware", "hardware_id"), p("cluster", "cluster_id"), "cluster_members"],
  ["hst", "id", null, p("hardware", "hardware_id"), p("storage", "id"), "storage where hardware_id is not null"],
  ["sst", "service_id", "storage_id", p("service", "service_id"), p("storage", "storage_id"), "service_storage"],
  ["sm", "service_id", "misc_id", p("service", "service_id"), p("misc", "misc_id"), "service_misc"],
  ["se", "id", null, p("service", "service_id"), p("external_node", "external_node_id"), "service_external_dependencies"],
  ["en", "id", null, p("external_node", "external_node_id"), p("network", "network_id"), "external_node_networks"],
  ["nn", "network_id", "peer_network_id", p("network", "network_id"), p("network", "peer_network_id"), "network_peers"],
];
const EDGES = sql.raw(
  EDGE_SOURCES.map(([kind, a, b, source, target, from]) => `select '${kind}' as kind, ${a} as a, ${b ?? "null::int"} as b, ${source} as source, ${target} as target from ${from}`).join(" union all "),
);

export async function edgesAmong(db: Db, ids: string[]) {
  const valid = ids.filter((id) => NODE_ID.test(id));
  if (valid.length < 2) return [];
  const set = `{${valid.join(",")}}`;
  const rows = await queryRows<{ kind: EdgeKind; a: number; b: number | null; source: string; target: string }>(
    db,
    sql`select * from (${EDGES}) e where e.source = any(${set}::text[]) and e.target = any(${set}::text[]) order by e.kind, e.a, e.b`,
  );
  return rows.map((e) => ({ id: edgeId(e.kind, Number(e.a), e.b == null ? null : Number(e.b)), source: e.source, target: e.target, relation: EDGE_KINDS[e.kind].relation }));
}

export async function topologyGraph({ ctx, topologyId }: { ctx: ServiceContext; topologyId: number }) {
  requireScope(ctx, "read:layout");
  const [topology] = await ctx.db
    .select({ id: topologies.id, name: topologies.name, description: topologies.description })
    .from(topologies)
    .where(eq(topologies.id, topologyId));
  if (!topology) throw ApiError.notFound("Topology", topologyId);
  const placed = await ctx.db.select().from(topologyNodes).where(eq(topologyNodes.topology_id, topologyId)).orderBy(topologyNodes.node_id);
  const ids = placed.map((n) => n.node_id);
  const [known, edges] = await Promise.all([inventoryNodes(ctx.db, ids), edgesAmong(ctx.db, ids)]);
  const nodes = placed.flatMap((n) => {
    const node = known.get(n.node_id);
    return node ? [{ ...node, position: { x: n.x, y: n.y } }] : [];
  });
  return { topology, nodes, edges, missing: ids.filter((id) => !known.has(id)) };
}
