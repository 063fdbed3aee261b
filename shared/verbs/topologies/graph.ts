// GET /topologies/{topology_id}/graph: the topology's nodes with their current label and status from the
// inventory (one query per node type present), and the inventory's edges whose two ends are both in the
// topology (one statement). Nodes whose object has since been deleted are listed in `missing`.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { queryRows } from "../../db/database.ts";
import { topologies, topologyNodes } from "../../db/schema/index.ts";
import { EDGE_KINDS, type EdgeKind, edgeId, NODE_ID, nodeId, type NodeType, parseNodeId } from "../../domain/graph-ids.ts";
import { ApiError } from "../../errors.ts";
import { edgesSql, NODE_SOURCES } from "../graph/sources.ts";
import type { GraphNode } from "../graph/topology.ts";
import { defineRead } from "../verb.ts";

export type InventoryNode = Omit<GraphNode, "position">;

/** node id -> current label/status of the objects these node ids name, one query per type present. */
export async function inventoryNodes(db: Db, ids: string[]): Promise<Map<string, InventoryNode>> {
  const byType = new Map<NodeType, number[]>();
  for (const parsed of ids.map(parseNodeId)) if (parsed) byType.set(parsed.type, [...(byType.get(parsed.type) ?? []), parsed.id]);
  const found = await Promise.all(
    [...byType].map(async ([type, refs]) => {
      const src = NODE_SOURCES[type];
      const rows = (await db
        .select({ id: src.id, name: src.name, status: src.status ?? sql<null>`null`, subtitle: src.subtitle })
        .from(src.table)
        .where(inArray(src.id, refs))) as { id: number; name: string; status: string | null; subtitle: string | null }[];
      return rows.map(
        (r): InventoryNode => ({ id: nodeId(type, r.id), type, label: r.name, ref_id: r.id, status: r.status, subtitle: r.subtitle }),
      );
    }),
  );
  return new Map(found.flat().map((n) => [n.id, n]));
}

export async function edgesAmong(db: Db, ids: string[]) {
  const valid = ids.filter((id) => NODE_ID.test(id));
  if (valid.length < 2) return [];
  const set = `{${valid.join(",")}}`;
  const rows = await queryRows<{ kind: EdgeKind; a: number; b: number | null; source: string; target: string }>(
    db,
    sql`select * from (${edgesSql()}) e where e.source = any(${set}::text[]) and e.target = any(${set}::text[]) order by e.kind, e.a, e.b`,
  );
  return rows.map((e) => ({
    id: edgeId(e.kind, Number(e.a), e.b == null ? null : Number(e.b)),
    source: e.source,
    target: e.target,
    relation: EDGE_KINDS[e.kind].relation,
  }));
}

export const topologyGraph = defineRead({ scope: "read:layout" }, async (ctx, { topologyId }: { topologyId: number }) => {
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
});
