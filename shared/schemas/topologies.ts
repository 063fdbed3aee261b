// Saved topologies: a named subset of graph nodes (hw-1, cu-2, svc-3, ...) with their positions.
import * as v from "valibot";
import { NODE_ID } from "../domain/graph-ids.ts";
import { listQuery, listResponse } from "./list-query.ts";
import { Name, OptionalNumber, OptionalText, writeBody } from "./fields.ts";

export const TOPOLOGY_NODES_MAX = 2000;

const writable = { name: Name, description: OptionalText(2000) };
const readOnly = ["nodes"];
export const TopologyCreate = writeBody(writable, readOnly);

const Position = OptionalNumber(-1e7, 1e7);
export const NodePlacement = v.object({
  node_id: v.pipe(v.string(), v.regex(NODE_ID, "Must be a graph node id: hw-1, cu-2, svc-3, st-4, net-5, misc-6, ext-7 or cluster-8.")),
  x: Position,
  y: Position,
});
export const NodesBody = v.object({
  nodes: v.pipe(v.array(NodePlacement), v.maxLength(TOPOLOGY_NODES_MAX, `At most ${TOPOLOGY_NODES_MAX} nodes.`)),
});

const NodeView = v.object({ node_id: v.string(), x: v.nullable(v.number()), y: v.nullable(v.number()) });
export const TopologyView = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  nodes: v.array(NodeView),
  created_at: v.string(),
  updated_at: v.string(),
});
export const TopologyListQuery = listQuery(["name", "created_at", "updated_at"], {});
export const TopologyList = listResponse(TopologyView);

export const TopologyGraph = v.object({
  topology: v.object({ id: v.number(), name: v.string(), description: v.nullable(v.string()) }),
  nodes: v.array(
    v.object({
      id: v.string(),
      type: v.string(),
      label: v.string(),
      ref_id: v.number(),
      status: v.nullable(v.string()),
      subtitle: v.nullable(v.string()),
      position: v.object({ x: v.nullable(v.number()), y: v.nullable(v.number()) }),
    }),
  ),
  edges: v.array(v.object({ id: v.string(), source: v.string(), target: v.string(), relation: v.string() })),
  missing: v.array(v.string()),
});
