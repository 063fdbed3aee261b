// The rules of units in a rack (ADR 0480): a node occupies units first..first+height-1 on its face
// (`both` takes the front and the rear), a reservation takes its units on both faces, and the numbering
// only decides which end unit 1 is drawn at. Pure: the verbs load the rows, these answer.

export type Face = "front" | "rear" | "both";
export type Numbering = "bottom_up" | "top_down";

export interface PlacedNode {
  id: number;
  name: string;
  first_unit: number;
  u_height: number;
  face: Face;
}

export interface Reservation {
  id: number;
  first_unit: number;
  u_count: number;
  reason: string;
}

export interface Utilisation {
  used_u: number;
  reserved_u: number;
  free_u: number;
  percent: number;
}

/** A node without a height is 1 U (as NetBox's default); 0 U nodes (PDUs on the side) take no unit. */
export const heightOf = (u_height: number | null | undefined): number => u_height ?? 1;

/** A node without a face is on the front. */
export const faceOf = (face: string | null | undefined): Face => (face === "rear" || face === "both" ? face : "front");

export const facesMeet = (a: Face, b: Face): boolean => a === "both" || b === "both" || a === b;

/** Whether units [a, a+n) and [b, b+m) share one. */
export const rangesMeet = (a: number, n: number, b: number, m: number): boolean => a < b + m && b < a + n;

/** "unit 7" or "units 10-11". */
export function unitsText(first: number, count: number): string {
  return count === 1 ? `unit ${first}` : `units ${first}-${first + count - 1}`;
}

/** What refuses a node at [first, first+height) on `face`: the first node or reservation in the way. */
export function occupantAt(
  first: number,
  height: number,
  face: Face,
  nodes: readonly PlacedNode[],
  reservations: readonly Reservation[],
): { kind: "hardware"; node: PlacedNode } | { kind: "reservation"; reservation: Reservation } | undefined {
  const node = nodes.find((n) => facesMeet(face, n.face) && rangesMeet(first, height, n.first_unit, n.u_height));
  if (node) return { kind: "hardware", node };
  const reservation = reservations.find((r) => rangesMeet(first, height, r.first_unit, r.u_count));
  return reservation ? { kind: "reservation", reservation } : undefined;
}

const onFace = (face: Face) => (face === "both" ? "on both faces" : `on the ${face}`);

/** The sentence of a 409: which units are asked for on which face, and who has them. */
export function takenText(first: number, height: number, face: Face, taken: NonNullable<ReturnType<typeof occupantAt>>): string {
  const asked = `${unitsText(first, height)} ${onFace(face)} cannot be used`;
  if (taken.kind === "hardware") {
    const n = taken.node;
    const verb = n.u_height === 1 ? "is" : "are";
    return `${asked}: ${unitsText(n.first_unit, n.u_height)} ${verb} taken by hardware '${n.name}' (id ${n.id}), mounted ${n.face === "both" ? "full depth" : onFace(n.face)}.`;
  }
  const r = taken.reservation;
  return `${asked}: ${unitsText(r.first_unit, r.u_count)} ${r.u_count === 1 ? "is" : "are"} reserved (reservation ${r.id}: ${r.reason}).`;
}

/** Units top of the rack first: bottom-up racks count down from the top, top-down racks count up. */
export function drawingOrder(height: number, numbering: Numbering): number[] {
  const units = Array.from({ length: height }, (_, i) => i + 1);
  return numbering === "bottom_up" ? units.reverse() : units;
}

/**
 * Used units take a node on either face; reserved units are reserved and not used; the rest are free.
 * Units past the rack's height (only an import can leave them) are not counted.
 */
export function utilisationOf(height: number, nodes: readonly PlacedNode[], reservations: readonly Reservation[]): Utilisation {
  const used = new Set<number>();
  const reserved = new Set<number>();
  for (const n of nodes) for (let u = n.first_unit; u < n.first_unit + n.u_height && u <= height; u++) used.add(u);
  for (const r of reservations)
    for (let u = r.first_unit; u < r.first_unit + r.u_count && u <= height; u++) if (!used.has(u)) reserved.add(u);
  return {
    used_u: used.size,
    reserved_u: reserved.size,
    free_u: height - used.size - reserved.size,
    percent: Math.round((used.size / height) * 1000) / 10,
  };
}

export type Occupant =
  | ({ type: "hardware" } & PlacedNode)
  | { type: "reservation"; id: number; first_unit: number; u_count: number; reason: string };

/** Each unit's front and rear occupant, in drawing order. */
export function elevationUnits(
  height: number,
  numbering: Numbering,
  nodes: readonly PlacedNode[],
  reservations: readonly Reservation[],
): { unit: number; front: Occupant | null; rear: Occupant | null }[] {
  const front = new Map<number, Occupant>();
  const rear = new Map<number, Occupant>();
  for (const r of reservations) {
    const occupant: Occupant = { type: "reservation", ...r };
    for (let u = r.first_unit; u < r.first_unit + r.u_count; u++) {
      front.set(u, occupant);
      rear.set(u, occupant);
    }
  }
  // Nodes after reservations: where an import left both, the node is what is there.
  for (const n of nodes) {
    const occupant: Occupant = { type: "hardware", ...n };
    for (let u = n.first_unit; u < n.first_unit + n.u_height; u++) {
      if (n.face !== "rear") front.set(u, occupant);
      if (n.face !== "front") rear.set(u, occupant);
    }
  }
  return drawingOrder(height, numbering).map((unit) => ({ unit, front: front.get(unit) ?? null, rear: rear.get(unit) ?? null }));
}
