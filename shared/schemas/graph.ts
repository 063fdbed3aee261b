// [graph] request shapes of /graph/topology, /graph/summary, /graph/edges/{edge_id}, /graph/layout and
// /graph/place-node (the answers' shapes are in functions/routes/inventory/graph.ts).
import * as v from "valibot";
import { NODE_ID, NODE_TYPES } from "../domain/graph-ids.ts";

/** A node's place on the canvas (also what a layout answers per node). */
export const Position = v.object({ x: v.pipe(v.number(), v.finite()), y: v.pipe(v.number(), v.finite()) });
export const LayoutName = v.optional(v.pipe(v.string(), v.trim(), v.regex(/^[\w.-]{1,64}$/, "Letters, digits, . _ - (at most 64).")), "default");
export const EdgeParam = v.object({ edge_id: v.pipe(v.string(), v.regex(/^e-[a-z]+-\d+(-\d+)?$/, "An edge id like e-hh-1 or e-ss-1-2.")) });

/** `types=hardware,service`: the node kinds wanted, comma-separated; all when absent. */
const Types = v.optional(v.pipe(v.string(), v.transform((s) => s.split(",").map((t) => t.trim()).filter(Boolean)), v.array(v.picklist(NODE_TYPES, `Types are: ${NODE_TYPES.join(", ")}.`))));

export const TopologyQuery = v.object({
  types: Types,
  layout: LayoutName,
});
export const SummaryQuery = v.object({ types: Types });
/** An edge's own attributes to change (a connection's bandwidth, a membership's IP). */
export const EdgePatchBody = v.record(v.string(), v.union([v.string(), v.number(), v.null()]));
export const LayoutQuery = v.object({ name: LayoutName });
export const LayoutSaveBody = v.object({ name: LayoutName, positions: v.record(v.string(), Position), replace: v.optional(v.boolean(), false) });
export const PlaceNodeBody = v.object({ node_id: v.pipe(v.string(), v.regex(NODE_ID, "A graph node id like hw-1.")), x: v.pipe(v.number(), v.finite()), y: v.pipe(v.number(), v.finite()), layout: LayoutName });
