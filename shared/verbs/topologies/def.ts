// Topologies as a resource (list, create, get, put, delete with audit diff); each read carries the
// topology's nodes and positions, in one extra query per page.
import { asc, inArray } from "drizzle-orm";
import { topologies, topologyNodes } from "../../db/schema/index.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";

type Row = typeof topologies.$inferSelect;
type NodeRow = { node_id: string; x: number | null; y: number | null };

export const topologiesDef = defineResource({
  label: "Topology",
  entityType: "topology",
  // Editors hold write:layout (spec 5.2); deletes need delete:layout (administrators).
  scopeResource: "layout",
  table: topologies,
  columns: { id: topologies.id },
  channels: ["topology"],
  list: {
    sortable: { name: topologies.name, created_at: topologies.created_at, updated_at: topologies.updated_at },
    search: [topologies.name, topologies.description],
  },
  async present(db, rows) {
    const ids = rows.map((r) => r.id);
    const nodes =
      ids.length === 0
        ? []
        : await db.select().from(topologyNodes).where(inArray(topologyNodes.topology_id, ids)).orderBy(asc(topologyNodes.node_id));
    return rows.map((r) =>
      presentTopology(
        r,
        nodes.filter((n) => n.topology_id === r.id).map(({ node_id, x, y }) => ({ node_id, x, y })),
      ),
    );
  },
});

export const topologyVerbs = resourceVerbs(topologiesDef);

function presentTopology(r: Row, nodes: NodeRow[]) {
  return { id: r.id, name: r.name, description: r.description, nodes, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}
