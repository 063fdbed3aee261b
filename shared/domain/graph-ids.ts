// Graph node and edge ids (docs/architecture.md, API contracts): nodes hw-N, cu-N, svc-N, st-N, net-N, misc-N, ext-N,
// cluster-N; edges e-<kind>-<key>. One table here so the graph, layouts and topologies agree.
export const NODE_PREFIX = {
  hardware: "hw",
  compute_unit: "cu",
  service: "svc",
  storage: "st",
  network: "net",
  misc: "misc",
  external_node: "ext",
  cluster: "cluster",
} as const;
export type NodeType = keyof typeof NODE_PREFIX;
export const NODE_TYPES = Object.keys(NODE_PREFIX) as NodeType[];

export const NODE_ID = /^(hw|cu|svc|st|net|misc|ext|cluster)-(\d{1,10})$/;

export function nodeId(type: NodeType, id: number): string {
  return `${NODE_PREFIX[type]}-${id}`;
}

export function parseNodeId(id: string): { type: NodeType; id: number } | null {
  const m = NODE_ID.exec(id);
  if (!m) return null;
  const type = NODE_TYPES.find((t) => NODE_PREFIX[t] === m[1])!;
  return { type, id: Number(m[2]) };
}

/**
 * Edge kinds: the relation each shows and whether its key is one row id (a link row or the row holding
 * the foreign key) or a pair of ids (composite link rows).
 */
export const EDGE_KINDS = {
  hh: { relation: "connects_to", pair: false },
  hc: { relation: "hosts", pair: false },
  hs: { relation: "runs", pair: false },
  cs: { relation: "runs", pair: false },
  ss: { relation: "depends_on", pair: true },
  hn: { relation: "on_network", pair: true },
  cn: { relation: "on_network", pair: true },
  cl: { relation: "cluster_member", pair: false },
  hst: { relation: "has_storage", pair: false },
  sst: { relation: "uses", pair: true },
  sm: { relation: "uses", pair: true },
  se: { relation: "integrates_with", pair: false },
  en: { relation: "routes", pair: false },
  nn: { relation: "peers_with", pair: true },
} as const;
export type EdgeKind = keyof typeof EDGE_KINDS;

export function edgeId(kind: EdgeKind, a: number, b?: number | null): string {
  return b == null ? `e-${kind}-${a}` : `e-${kind}-${a}-${b}`;
}

export function parseEdgeId(id: string): { kind: EdgeKind; a: number; b?: number } | null {
  const m = /^e-([a-z]+)-(\d{1,10})(?:-(\d{1,10}))?$/.exec(id);
  if (!m || !Object.hasOwn(EDGE_KINDS, m[1]!)) return null;
  const kind = m[1] as EdgeKind;
  if (EDGE_KINDS[kind].pair !== (m[3] !== undefined)) return null;
  return m[3] !== undefined ? { kind, a: Number(m[2]), b: Number(m[3]) } : { kind, a: Number(m[2]) };
}
