// The topology answer turned into what the graph draws: past MAX_NODES (what cytoscape pans and lays out
// smoothly on a laptop) the most connected nodes are kept and the rest counted, so a 100,000-object
// inventory still opens at once; filtering by kind narrows the sample.
import type { paths } from "../api/client.ts";

export type Topology = paths["/api/v1/graph/topology"]["get"]["responses"][200]["content"]["application/json"];
export type TopoNode = Topology["nodes"][number];
export type NodeKind = TopoNode["type"];

export const KINDS: readonly NodeKind[] = ["hardware", "compute_unit", "service", "storage", "network", "misc", "external_node", "cluster"];
export const MAX_NODES = 1500;

/** The inventory screen of a node kind, where there is one. */
export const DETAIL_GROUP: Partial<Record<NodeKind, string>> = { hardware: "hardware", compute_unit: "compute", service: "services", network: "networks" };

/** Kinds the blast-radius route walks from. */
export const BLAST_KINDS = ["hardware", "compute_unit", "service", "storage"] as const;
export type BlastKind = (typeof BLAST_KINDS)[number];
export const isBlastKind = (k: NodeKind): k is BlastKind => (BLAST_KINDS as readonly string[]).includes(k);

export interface Sampled {
  nodes: TopoNode[];
  edges: Topology["edges"];
  total: number;
}

export function sample(topo: Topology): Sampled {
  if (topo.nodes.length <= MAX_NODES) return { nodes: topo.nodes, edges: topo.edges, total: topo.nodes.length };
  const degree = new Map<string, number>();
  for (const e of topo.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const nodes = [...topo.nodes].sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0)).slice(0, MAX_NODES);
  const kept = new Set(nodes.map((n) => n.id));
  return { nodes, edges: topo.edges.filter((e) => kept.has(e.source) && kept.has(e.target)), total: topo.nodes.length };
}
