// GET /graph/topology: every inventory object as a node and every relation as an edge, in two
// statements (one UNION ALL for nodes, one for edges) whatever the size of the inventory.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { EDGE_KINDS, type EdgeKind, edgeId, nodeId, type NodeType } from "../../domain/graph-ids.ts";
import type { ServiceContext } from "../context.ts";
import { requireScope } from "../verb.ts";

const NODES = sql`
  select 'hardware' as type, id, name, coalesce(status_override, status) as status, role as subtitle from hardware
  union all select 'compute_unit', id, name, status, kind from compute_units
  union all select 'service', id, name, status, slug from services
  union all select 'storage', id, name, null, kind from storage
  union all select 'network', id, name, null, cidr from networks
  union all select 'misc', id, name, null, kind from misc_items
  union all select 'external_node', id, name, null, provider from external_nodes
  union all select 'cluster', id, name, null, type from hardware_clusters`;

// kind, edge key (a, b), and the two ends as (type, id).
const EDGES = sql`
  select 'hh' as kind, id as a, null::int as b, 'hardware' as st, source_hardware_id as si, 'hardware' as tt, target_hardware_id as ti from hardware_connections
  union all select 'hc', id, null, 'hardware', hardware_id, 'compute_unit', id from compute_units where hardware_id is not null
  union all select 'hs', id, null, 'hardware', hardware_id, 'service', id from services where hardware_id is not null and compute_id is null
  union all select 'cs', id, null, 'compute_unit', compute_id, 'service', id from services where compute_id is not null
  union all select 'ss', service_id, depends_on_id, 'service', service_id, 'service', depends_on_id from service_dependencies
  union all select 'hn', network_id, hardware_id, 'hardware', hardware_id, 'network', network_id from network_hardware_members
  union all select 'cn', network_id, compute_id, 'compute_unit', compute_id, 'network', network_id from network_members
  union all select 'cl', id, null, 'hardware', hardware_id, 'cluster', cluster_id from cluster_members
  union all select 'hst', id, null, 'hardware', hardware_id, 'storage', id from storage where hardware_id is not null
  union all select 'sst', service_id, storage_id, 'service', service_id, 'storage', storage_id from service_storage
  union all select 'sm', service_id, misc_id, 'service', service_id, 'misc', misc_id from service_misc
  union all select 'se', id, null, 'service', service_id, 'external_node', external_node_id from service_external_dependencies
  union all select 'en', id, null, 'external_node', external_node_id, 'network', network_id from external_node_networks
  union all select 'nn', network_id, peer_network_id, 'network', network_id, 'network', peer_network_id from network_peers`;

export interface GraphNode {
  id: string;
  type: NodeType;
  label: string;
  ref_id: number;
  status: string | null;
  subtitle: string | null;
  position?: { x: number; y: number };
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  relation: string;
}

export interface TopologyOptions {
  types?: NodeType[] | undefined;
  layout?: string | undefined;
}

export async function graphTopology({ ctx, options = {} }: { ctx: ServiceContext; options?: TopologyOptions }) {
  requireScope(ctx, "read:graph");
  const wanted = options.types && options.types.length > 0 ? new Set(options.types) : null;
  const [nodeRows, edgeRows, layoutRows] = await Promise.all([
    queryRows<{ type: NodeType; id: number; name: string; status: string | null; subtitle: string | null }>(ctx.db, NODES),
    queryRows<{ kind: EdgeKind; a: number; b: number | null; st: NodeType; si: number; tt: NodeType; ti: number }>(ctx.db, EDGES),
    queryRows<{ positions: Record<string, { x: number; y: number }> }>(
      ctx.db,
      sql`select positions from graph_layouts where name = ${options.layout ?? "default"}`,
    ),
  ]);
  const positions = layoutRows[0]?.positions ?? {};
  const nodes: GraphNode[] = [];
  for (const r of nodeRows) {
    if (wanted && !wanted.has(r.type)) continue;
    const id = nodeId(r.type, r.id);
    const node: GraphNode = { id, type: r.type, label: r.name, ref_id: r.id, status: r.status, subtitle: r.subtitle };
    const p = positions[id];
    if (p) node.position = p;
    nodes.push(node);
  }
  const edges: GraphEdge[] = [];
  for (const e of edgeRows) {
    if (wanted && !(wanted.has(e.st) && wanted.has(e.tt))) continue;
    edges.push({ id: edgeId(e.kind, e.a, e.b), source: nodeId(e.st, e.si), target: nodeId(e.tt, e.ti), relation: EDGE_KINDS[e.kind].relation });
  }
  return { nodes, edges, counts: { nodes: nodes.length, edges: edges.length } };
}
