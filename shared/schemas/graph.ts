// [graph] request and response shapes of /graph/topology, /graph/summary, /graph/edges/{edge_id}, /graph/layout
// and /graph/place-node.
import * as v from "valibot";
import { NODE_ID, NODE_TYPES } from "../domain/graph-ids.ts";
import { CommaList } from "./fields.ts";

/** A node's place on the canvas (also what a layout answers per node). */
export const Position = v.object({ x: v.pipe(v.number(), v.finite()), y: v.pipe(v.number(), v.finite()) });
export const LayoutName = v.optional(
  v.pipe(v.string(), v.trim(), v.regex(/^[\w.-]{1,64}$/, "Letters, digits, . _ - (at most 64).")),
  "default",
);
export const EdgeParam = v.object({ edge_id: v.pipe(v.string(), v.regex(/^e-[a-z]+-\d+(-\d+)?$/, "An edge id like e-hh-1 or e-ss-1-2.")) });

/** `types=hardware,service`: the node kinds wanted, comma-separated; all when absent. */
const Types = CommaList(NODE_TYPES);

export const TopologyQuery = v.object({
  types: Types,
  layout: LayoutName,
});
export const SummaryQuery = v.object({ types: Types });
/** An edge's own attributes to change (a connection's bandwidth, a membership's IP). */
export const EdgePatchBody = v.record(v.string(), v.union([v.string(), v.number(), v.null()]));
export const LayoutQuery = v.object({ name: LayoutName });
export const LayoutSaveBody = v.object({
  name: LayoutName,
  positions: v.record(v.string(), Position),
  replace: v.optional(v.boolean(), false),
});
export const PlaceNodeBody = v.object({
  node_id: v.pipe(v.string(), v.regex(NODE_ID, "A graph node id like hw-1.")),
  x: v.pipe(v.number(), v.finite()),
  y: v.pipe(v.number(), v.finite()),
  layout: LayoutName,
});

// The answers.
export const Layout = v.object({ name: v.string(), positions: v.record(v.string(), Position), updated_at: v.nullable(v.string()) });
export const GraphNode = v.object({
  id: v.string(),
  type: v.picklist(NODE_TYPES),
  label: v.string(),
  ref_id: v.number(),
  status: v.nullable(v.string()),
  subtitle: v.nullable(v.string()),
  position: v.optional(Position),
});
export const GraphEdge = v.object({ id: v.string(), source: v.string(), target: v.string(), relation: v.string() });
const NodeType = v.picklist(NODE_TYPES);
const Counts = v.object({ nodes: v.number(), edges: v.number() });
export const Topology = v.object({ nodes: v.array(GraphNode), edges: v.array(GraphEdge), counts: Counts });
export const GraphSummary = v.object({
  counts: Counts,
  kinds: v.array(v.object({ type: NodeType, count: v.number() })),
  links: v.array(v.object({ source_type: NodeType, target_type: NodeType, count: v.number() })),
});
/** PATCH /graph/edges/{edge_id}: the edge's row after the change (its fields depend on the edge's kind). */
export const EdgeView = v.looseObject({ id: v.string() });
