// Past MAX_NODES the topology is drawn as groups instead of every node: one group per kind, and inside a
// kind of more than LEAF records, groups of consecutive names (at most FANOUT per level), so any
// inventory opens as a handful of boxes. Opening a group (cytoscape compound node) draws what it holds;
// the drawn total never passes MAX_NODES. An edge to a closed group goes to that group, merged with the
// others between the same two ends and counted.
import { KINDS, MAX_NODES, type NodeKind, type Topology, type TopoNode } from "./graph-data.ts";

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
  /** Every record's drawn stand-in: itself, or the closed group holding it. */
  shownAs: ReadonlyMap<string, string>;
  total: number;
}

const byLabel = (a: TopoNode, b: TopoNode) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id);

function split(id: string, label: string, kind: NodeKind, members: TopoNode[]): Cluster {
  if (members.length <= LEAF) return { id, label, kind, members };
  const parts = Math.min(FANOUT, Math.ceil(members.length / LEAF));
  const size = Math.ceil(members.length / parts);
  const children: Cluster[] = [];
  for (let i = 0; i * size < members.length; i++) {
    const slice = members.slice(i * size, (i + 1) * size);
    children.push(split(`${id}.${i}`, `${slice[0]!.label} … ${slice[slice.length - 1]!.label}`, kind, slice));
  }
  return { id, label, kind, members, children };
}

/** The groups of a topology too big to draw whole, one per kind present; none when it fits. */
export function clustersOf(topo: Topology): Cluster[] {
  if (topo.nodes.length <= MAX_NODES) return [];
  const byKind = new Map<NodeKind, TopoNode[]>();
  for (const n of topo.nodes) {
    const list = byKind.get(n.type);
    if (list) list.push(n);
    else byKind.set(n.type, [n]);
  }
  return KINDS.filter((k) => byKind.has(k)).map((k) => split(`group:${k}`, k.replace("_", " "), k, byKind.get(k)!.sort(byLabel)));
}

/** How many elements the drawing has with `open` groups open (records and groups alike). */
export function drawnCount(clusters: readonly Cluster[], open: ReadonlySet<string>): number {
  const count = (c: Cluster): number => (!open.has(c.id) ? 1 : 1 + (c.children ? c.children.reduce((s, ch) => s + count(ch), 0) : c.members.length));
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
export function groupsHolding(clusters: readonly Cluster[], id: string): string[] {
  for (const c of clusters) {
    if (c.members.some((m) => m.id === id)) return [c.id, ...(c.children ? groupsHolding(c.children, id) : [])];
  }
  return [];
}

/** What is drawn: every record when there are no clusters, else the open groups' contents. */
export function drawn(topo: Topology, clusters: readonly Cluster[], open: ReadonlySet<string>): GraphData {
  const total = topo.nodes.length;
  if (clusters.length === 0) {
    return { nodes: topo.nodes, groups: [], parents: new Map(), edges: topo.edges, shownAs: new Map(topo.nodes.map((n) => [n.id, n.id])), total };
  }
  const nodes: TopoNode[] = [];
  const groups: GroupBox[] = [];
  const parents = new Map<string, string>();
  const shownAs = new Map<string, string>();
  const visit = (c: Cluster, parent: string | undefined) => {
    const isOpen = open.has(c.id);
    groups.push({ id: c.id, label: c.label, kind: c.kind, count: c.members.length, open: isOpen, parent });
    if (!isOpen) for (const m of c.members) shownAs.set(m.id, c.id);
    else if (c.children) for (const ch of c.children) visit(ch, c.id);
    else
      for (const m of c.members) {
        nodes.push(m);
        parents.set(m.id, c.id);
        shownAs.set(m.id, m.id);
      }
  };
  for (const c of clusters) visit(c, undefined);

  const edges: Edge[] = [];
  const merged = new Map<string, Edge>();
  for (const e of topo.edges) {
    const source = shownAs.get(e.source);
    const target = shownAs.get(e.target);
    if (!source || !target || source === target) continue;
    if (source === e.source && target === e.target) {
      edges.push(e);
      continue;
    }
    const id = `merged:${source}>${target}`;
    const have = merged.get(id);
    if (have) have.count = (have.count ?? 1) + 1;
    else merged.set(id, { id, source, target, relation: "links", count: 1 });
  }
  return { nodes, groups, parents, edges: [...edges, ...merged.values()], shownAs, total };
}
