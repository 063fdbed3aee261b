// GET /graph/topology: every inventory object as a node and every relation as an edge, in two
// statements (one UNION ALL for nodes, one for edges; ./sources.ts) whatever the size of the inventory.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { EDGE_KINDS, type EdgeKind, edgeId, NODE_TYPES, nodeId, type NodeType } from "../../domain/graph-ids.ts";
import { defineRead } from "../verb.ts";
import { edgesSql, nodesSql } from "./sources.ts";

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

export const graphTopology = defineRead({ scope: "read:graph" }, async (ctx, options: TopologyOptions) => {
  const types = options.types && options.types.length > 0 ? options.types : NODE_TYPES;
  const [nodeRows, edgeRows, layoutRows] = await Promise.all([
    queryRows<{ type: NodeType; id: number; name: string; status: string | null; subtitle: string | null }>(ctx.db, nodesSql(types)),
    queryRows<{ kind: EdgeKind; a: number; b: number | null; source: string; target: string }>(ctx.db, edgesSql(types)),
    queryRows<{ positions: Record<string, { x: number; y: number }> }>(
      ctx.db,
      sql`select positions from graph_layouts where name = ${options.layout ?? "default"}`,
    ),
  ]);
  const positions = layoutRows[0]?.positions ?? {};
  const nodes: GraphNode[] = [];
  for (const r of nodeRows) {
    const id = nodeId(r.type, Number(r.id));
    const node: GraphNode = { id, type: r.type, label: r.name, ref_id: Number(r.id), status: r.status, subtitle: r.subtitle };
    const p = positions[id];
    if (p) node.position = p;
    nodes.push(node);
  }
  const edges: GraphEdge[] = [];
  for (const e of edgeRows)
    edges.push({
      id: edgeId(e.kind, Number(e.a), e.b == null ? null : Number(e.b)),
      source: e.source,
      target: e.target,
      relation: EDGE_KINDS[e.kind].relation,
    });
  return { nodes, edges, counts: { nodes: nodes.length, edges: edges.length } };
});
