// The topology answer's types and the kinds it draws. Past MAX_NODES (what cytoscape pans and lays out
// smoothly on a laptop) the graph is drawn as groups (./clusters.ts), so a 100,000-object inventory
// still opens at once.
import type { paths } from "../api/client.ts";

export type Topology = paths["/api/v1/graph/topology"]["get"]["responses"][200]["content"]["application/json"];
export type TopoNode = Topology["nodes"][number];
export type Summary = paths["/api/v1/graph/summary"]["get"]["responses"][200]["content"]["application/json"];
export type NodeKind = TopoNode["type"];

export const KINDS: readonly NodeKind[] = ["hardware", "compute_unit", "service", "storage", "network", "misc", "external_node", "cluster"];
export const MAX_NODES = 1500;

/** The inventory screen of a node kind, where there is one. */
export const DETAIL_GROUP: Partial<Record<NodeKind, string>> = {
  hardware: "hardware",
  compute_unit: "compute",
  service: "services",
  network: "networks",
};

/** Kinds the blast-radius route walks from. */
export const BLAST_KINDS = ["hardware", "compute_unit", "service", "storage"] as const;
export type BlastKind = (typeof BLAST_KINDS)[number];
export const isBlastKind = (k: NodeKind): k is BlastKind => (BLAST_KINDS as readonly string[]).includes(k);
