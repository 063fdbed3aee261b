// Past MAX_NODES the topology is drawn as groups instead of every node: one group per kind, and inside a
// kind of more than LEAF records, groups of consecutive names (at most FANOUT per level), so any
// inventory opens as a handful of boxes. Opening a group (cytoscape compound node) draws what it holds;
// the drawn total never passes MAX_NODES. An edge to a closed group goes to that group, merged with the
// others between the same two ends and counted.
import { KINDS, MAX_NODES, type NodeKind, type Summary, type Topology, type TopoNode } from "./graph-data.ts";

/** A group opened shows at most this many records; a bigger one holds smaller groups. */
export const LEAF = 150;
/** At most this many groups side by side in one group. */
export const FANOUT = 40;
/** On first view the smallest kinds are opened while the drawing stays under this. */
const FIRST_VIEW = 200;

export interface Cluster {
  id: string;
  label: string;
  kind: NodeKind;
  members: TopoNode[];
  /** Smaller groups, or none: then its members are drawn when it is open. */
  children?: Cluster[];
  parent?: Cluster;
}

/** A topology's groups, and the innermost group of each record (what finding its stand-in walks up from). */
export interface Grouping {
  clusters: Cluster[];
  leafOf: ReadonlyMap<string, Cluster>;
}

/** A drawn group: a node while closed, a compound node around what it holds while open. */
export interface GroupBox {
  id: string;
  label: string;
  kind: NodeKind;
  count: number;
  open: boolean;
  parent: string | undefined;
}

export type Edge = Topology["edges"][number] & { count?: number };

export interface GraphData {
  /** The records drawn. */
  nodes: TopoNode[];
  /** The groups drawn (none when the whole graph fits). */
  groups: GroupBox[];
  /** Each drawn record's open group. */
  parents: ReadonlyMap<string, string>;
  edges: Edge[];
  /** A record's drawn stand-in: itself, or the outermost closed group holding it. */
  shownAs(id: string): string;
  total: number;
}

const byLabel = (a: TopoNode, b: TopoNode) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id);

function split(id: string, label: string, kind: NodeKind, members: TopoNode[], leafOf: Map<string, Cluster>, parent?: Cluster): Cluster {
  const cluster: Cluster = { id, label, kind, members, ...(parent ? { parent } : {}) };
  if (members.length <= LEAF) {
    for (const m of members) leafOf.set(m.id, cluster);
    return cluster;
  }
  const parts = Math.min(FANOUT, Math.ceil(members.length / LEAF));
  const size = Math.ceil(members.length / parts);
  cluster.children = [];
  for (let i = 0; i * size < members.length; i++) {
    const slice = members.slice(i * size, (i + 1) * size);
    cluster.children.push(split(`${id}.${i}`, `${slice[0]!.label} … ${slice[slice.length - 1]!.label}`, kind, slice, leafOf, cluster));
  }
  return cluster;
}

/** The groups of a topology too big to draw whole, one per kind present; none when it fits. */
export function clustersOf(topo: Topology): Grouping {
  const leafOf = new Map<string, Cluster>();
  if (topo.nodes.length <= MAX_NODES) return { clusters: [], leafOf };
  const byKind = new Map<NodeKind, TopoNode[]>();
  for (const n of topo.nodes) {
    const list = byKind.get(n.type);
    if (list) list.push(n);
    else byKind.set(n.type, [n]);
  }
  const clusters = KINDS.filter((k) => byKind.has(k)).map((k) =>
    split(`group:${k}`, k.replace("_", " "), k, byKind.get(k)!.sort(byLabel), leafOf),
  );
  return { clusters, leafOf };
}

/** How many elements the drawing has with `open` groups open (records and groups alike). */
export function drawnCount(clusters: readonly Cluster[], open: ReadonlySet<string>): number {
  const count = (c: Cluster): number =>
    !open.has(c.id) ? 1 : 1 + (c.children ? c.children.reduce((s, ch) => s + count(ch), 0) : c.members.length);
  return clusters.reduce((s, c) => s + count(c), 0);
}

/** The groups opened on first view: the smallest kinds, while the drawing stays small. */
export function firstOpen(clusters: readonly Cluster[]): Set<string> {
  const open = new Set<string>();
  for (const c of [...clusters].sort((a, b) => a.members.length - b.members.length)) {
    if (c.children) continue;
    open.add(c.id);
    if (drawnCount(clusters, open) > FIRST_VIEW) open.delete(c.id);
  }
  return open;
}

export function findCluster(clusters: readonly Cluster[], id: string): Cluster | undefined {
  for (const c of clusters) {
    if (c.id === id) return c;
    const inner = c.children && id.startsWith(`${c.id}.`) ? findCluster(c.children, id) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** The groups holding record `id`, outermost first (none when the graph is not grouped). */
export function groupsHolding(grouping: Grouping, id: string): string[] {
  const chain: string[] = [];
  for (let c = grouping.leafOf.get(id); c; c = c.parent) chain.unshift(c.id);
  return chain;
}

/** What is drawn: every record when there are no clusters, else the open groups' contents. */
export function drawn(topo: Topology, grouping: Grouping, open: ReadonlySet<string>): GraphData {
  const total = topo.nodes.length;
  if (grouping.clusters.length === 0)
    return { nodes: topo.nodes, groups: [], parents: new Map(), edges: topo.edges, shownAs: (id) => id, total };
  const nodes: TopoNode[] = [];
  const groups: GroupBox[] = [];
  const parents = new Map<string, string>();
  const visit = (c: Cluster, parent: string | undefined) => {
    const isOpen = open.has(c.id);
    groups.push({ id: c.id, label: c.label, kind: c.kind, count: c.members.length, open: isOpen, parent });
    if (!isOpen) return;
    if (c.children) for (const ch of c.children) visit(ch, c.id);
    else
      for (const m of c.members) {
        nodes.push(m);
        parents.set(m.id, c.id);
      }
  };
  for (const c of grouping.clusters) visit(c, undefined);
  // Worked out per group (a few hundred) rather than per record: opening a group then costs the edges only.
  const standOf = new Map<Cluster, string | null>();
  const groupStand = (c: Cluster): string | null => {
    let stand = standOf.get(c);
    if (stand === undefined) {
      stand = (c.parent && groupStand(c.parent)) ?? (open.has(c.id) ? null : c.id);
      standOf.set(c, stand);
    }
    return stand;
  };
  const shownAs = (id: string) => {
    const leaf = grouping.leafOf.get(id);
    return (leaf && groupStand(leaf)) ?? id;
  };

  const edges: Edge[] = [];
  const merged = new Map<string, Map<string, Edge>>();
  for (const e of topo.edges) {
    const sourceLeaf = grouping.leafOf.get(e.source);
    const targetLeaf = grouping.leafOf.get(e.target);
    // An edge must end at drawn elements; one naming a record the answer does not hold is left out.
    if (!sourceLeaf || !targetLeaf) continue;
    const source = groupStand(sourceLeaf) ?? e.source;
    const target = groupStand(targetLeaf) ?? e.target;
    if (source === target) continue;
    if (source === e.source && target === e.target) {
      edges.push(e);
      continue;
    }
    let from = merged.get(source);
    if (!from) merged.set(source, (from = new Map()));
    const have = from.get(target);
    if (have) have.count = (have.count ?? 1) + 1;
    else {
      const edge = { id: `merged:${source}>${target}`, source, target, relation: "links", count: 1 };
      from.set(target, edge);
      edges.push(edge);
    }
  }
  return { nodes, groups, parents, edges, shownAs, total };
}

/**
 * Before the whole graph has arrived (tens of MB past 100,000 objects): one closed group per kind with
 * its count and the edges between kinds, from GET /graph/summary. The same group ids as clustersOf's,
 * so the drawing turns into the full one in place.
 */
export function summaryDrawing(summary: Summary): GraphData {
  const present = new Set(summary.kinds.map((k) => k.type));
  const groups: GroupBox[] = KINDS.filter((k) => present.has(k)).map((k) => ({
    id: `group:${k}`,
    label: k.replace("_", " "),
    kind: k,
    count: summary.kinds.find((x) => x.type === k)!.count,
    open: false,
    parent: undefined,
  }));
  const edges: Edge[] = summary.links
    .filter((l) => l.source_type !== l.target_type)
    .map((l) => ({
      id: `merged:group:${l.source_type}>group:${l.target_type}`,
      source: `group:${l.source_type}`,
      target: `group:${l.target_type}`,
      relation: "links",
      count: l.count,
    }));
  return { nodes: [], groups, parents: new Map(), edges, shownAs: (id) => id, total: summary.counts.nodes };
}
