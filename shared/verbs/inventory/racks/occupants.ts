// What is in racks: the placed nodes and the reservations of a set of racks, read in two queries, and
// the utilisation each rack answers with (the list, the elevation and the metrics share them).
import { and, asc, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { hardware, rackReservations } from "../../../db/schema/index.ts";
import { faceOf, heightOf, type PlacedNode, type Reservation, type Utilisation, utilisationOf } from "../../../domain/racks/rack-units.ts";

export interface RackContents {
  nodes: PlacedNode[];
  reservations: Reservation[];
}

/** Each rack's placed nodes (a position and at least 1 U) and reservations, by rack id. */
export async function contentsOf(db: Db, rackIds: readonly number[]): Promise<Map<number, RackContents>> {
  const ids = [...new Set(rackIds)];
  const byRack = new Map<number, RackContents>(ids.map((id) => [id, { nodes: [], reservations: [] }]));
  if (ids.length === 0) return byRack;
  const [nodes, reservations] = await Promise.all([
    db
      .select({
        id: hardware.id,
        name: hardware.name,
        rack_id: hardware.rack_id,
        first_unit: hardware.rack_unit,
        u_height: hardware.u_height,
        face: hardware.rack_face,
      })
      .from(hardware)
      .where(and(inArray(hardware.rack_id, ids), isNotNull(hardware.rack_unit)))
      .orderBy(asc(hardware.rack_unit), asc(hardware.id)),
    db
      .select({
        id: rackReservations.id,
        rack_id: rackReservations.rack_id,
        first_unit: rackReservations.first_unit,
        u_count: rackReservations.u_count,
        reason: rackReservations.reason,
      })
      .from(rackReservations)
      .where(inArray(rackReservations.rack_id, ids))
      .orderBy(asc(rackReservations.first_unit), asc(rackReservations.id)),
  ]);
  for (const n of nodes) {
    const height = heightOf(n.u_height);
    if (height === 0) continue;
    byRack.get(n.rack_id!)!.nodes.push({ id: n.id, name: n.name, first_unit: n.first_unit!, u_height: height, face: faceOf(n.face) });
  }
  for (const r of reservations)
    byRack.get(r.rack_id)!.reservations.push({ id: r.id, first_unit: r.first_unit, u_count: r.u_count, reason: r.reason });
  return byRack;
}

/** The utilisation of each rack of a page. */
export async function utilisationsOf(db: Db, racks: readonly { id: number; u_height: number }[]): Promise<Map<number, Utilisation>> {
  const contents = await contentsOf(
    db,
    racks.map((r) => r.id),
  );
  return new Map(
    racks.map((r) => {
      const c = contents.get(r.id)!;
      return [r.id, utilisationOf(r.u_height, c.nodes, c.reservations)];
    }),
  );
}
