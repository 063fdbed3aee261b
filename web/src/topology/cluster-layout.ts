// Where the grouped drawing puts things, computed here rather than by a cytoscape layout: each open group
// packs what it holds in rows (closed groups and records in fixed cells, open groups in boxes as big as
// their contents), and the kinds are packed the same way. Linear in what is drawn, and the same input
// gives the same places, so a live update or opening one group does not move the rest.
import type { GraphData } from "./clusters.ts";

type Point = { x: number; y: number };
type Size = { w: number; h: number };

const RECORD: Size = { w: 96, h: 56 };
const CLOSED_GROUP: Size = { w: 230, h: 96 };
const GAP = 24;
/** Room around an open group's contents for cytoscape's padding and the group's label. */
const FRAME = 40;

/** Rows about as wide as they are tall overall; answers each item's top-left corner and the whole size. */
function pack(sizes: readonly Size[]): { at: Point[]; size: Size } {
  const area = sizes.reduce((s, z) => s + (z.w + GAP) * (z.h + GAP), 0);
  const width = Math.max(Math.sqrt(area) * 1.2, ...sizes.map((z) => z.w));
  const at: Point[] = [];
  let x = 0;
  let y = 0;
  let row = 0;
  let w = 0;
  for (const z of sizes) {
    if (x > 0 && x + z.w > width) {
      y += row + GAP;
      x = 0;
      row = 0;
    }
    at.push({ x, y });
    x += z.w + GAP;
    row = Math.max(row, z.h);
    w = Math.max(w, x - GAP);
  }
  return { at, size: { w, h: y + row } };
}

/** The centre of every drawn record and closed group (open groups are drawn around their contents). */
export function clusterPositions(data: GraphData): Map<string, Point> {
  const inside = new Map<string | undefined, string[]>();
  const add = (parent: string | undefined, id: string) => {
    const list = inside.get(parent);
    if (list) list.push(id);
    else inside.set(parent, [id]);
  };
  const open = new Set<string>();
  for (const g of data.groups) {
    add(g.parent, g.id);
    if (g.open) open.add(g.id);
  }
  for (const n of data.nodes) add(data.parents.get(n.id), n.id);
  const closed = new Set(data.groups.filter((g) => !g.open).map((g) => g.id));

  // Sizes bottom-up, then places top-down.
  const sizes = new Map<string, Size>();
  const layouts = new Map<string | undefined, { at: Point[]; size: Size }>();
  const measure = (id: string): Size => {
    if (!open.has(id)) return closed.has(id) ? CLOSED_GROUP : RECORD;
    const packed = pack((inside.get(id) ?? []).map(measureCached));
    layouts.set(id, packed);
    return { w: packed.size.w + 2 * FRAME, h: packed.size.h + 2 * FRAME };
  };
  const measureCached = (id: string): Size => {
    let z = sizes.get(id);
    if (!z) sizes.set(id, (z = measure(id)));
    return z;
  };
  const top = inside.get(undefined) ?? [];
  layouts.set(undefined, pack(top.map(measureCached)));

  const positions = new Map<string, Point>();
  const place = (container: string | undefined, origin: Point) => {
    const layout = layouts.get(container);
    if (!layout) return;
    (inside.get(container) ?? []).forEach((id, i) => {
      const corner = { x: origin.x + layout.at[i]!.x, y: origin.y + layout.at[i]!.y };
      const z = sizes.get(id)!;
      if (open.has(id)) place(id, { x: corner.x + FRAME, y: corner.y + FRAME });
      else positions.set(id, { x: corner.x + z.w / 2, y: corner.y + z.h / 2 });
    });
  };
  place(undefined, { x: 0, y: 0 });
  return positions;
}
