// PUT /topologies/{topology_id}/nodes: replaces the topology's node set and positions. Every node must
// name an object the inventory has (422 listing the ones it does not), each node once.
import { eq } from "drizzle-orm";
import { topologies, topologyNodes } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { refuseRepeats } from "../docs/repeats.ts";
import { defineVerb } from "../verb.ts";
import { topologiesDef } from "./def.ts";
import { inventoryNodes } from "./graph.ts";

export interface NodePlacement {
  node_id: string;
  x?: number | null | undefined;
  y?: number | null | undefined;
}

export interface NodesReplace {
  topologyId: number;
  nodes: NodePlacement[];
}

export const replaceTopologyNodes = defineVerb(
  {
    scope: "write:layout",
    prepare: async (_ctx, { nodes }: NodesReplace) =>
      refuseRepeats(
        nodes,
        (n) => n.node_id,
        (i) => ["nodes", i, "node_id"],
        "a topology holds each node once",
      ),
  },
  async (s, { topologyId, nodes }) => {
    const [row] = await s.tx.select().from(topologies).where(eq(topologies.id, topologyId)).for("update");
    if (!row) throw ApiError.notFound("Topology", topologyId);
    const known = await inventoryNodes(
      s.tx,
      nodes.map((n) => n.node_id),
    );
    const missing = nodes.flatMap((n, i) =>
      known.has(n.node_id)
        ? []
        : [{ loc: ["body", "nodes", i, "node_id"], msg: `${n.node_id} is not in the inventory.`, type: "foreign_key" }],
    );
    if (missing.length > 0) throw ApiError.validation(missing);
    const before = await s.tx
      .select({ node_id: topologyNodes.node_id, x: topologyNodes.x, y: topologyNodes.y })
      .from(topologyNodes)
      .where(eq(topologyNodes.topology_id, topologyId));
    const after = nodes.map((n) => ({ node_id: n.node_id, x: n.x ?? null, y: n.y ?? null }));
    await s.tx.delete(topologyNodes).where(eq(topologyNodes.topology_id, topologyId));
    if (after.length > 0) await s.tx.insert(topologyNodes).values(after.map((n) => ({ topology_id: topologyId, ...n })));
    const [fresh] = await s.tx.update(topologies).set({ updated_at: s.now }).where(eq(topologies.id, topologyId)).returning();
    s.audit({
      action: "topology.nodes.replace",
      category: "inventory",
      entity_type: "topology",
      entity_id: topologyId,
      diff: { before: { nodes: before }, after: { nodes: after } },
    });
    s.emit("topology", { entity: "topology", action: "update", id: topologyId });
    return (await topologiesDef.present(s.tx, [fresh!]))[0]!;
  },
);
