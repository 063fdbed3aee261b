// A rack's elevation: every unit, top of the rack first, with what takes it on the front and on the rear.
import { and, asc, eq, isNull, or } from "drizzle-orm";
import { hardware, racks } from "../../../db/schema/index.ts";
import { elevationUnits, type Numbering, utilisationOf } from "../../../domain/racks/rack-units.ts";
import { loadRow } from "../../resources/update-row.ts";
import { defineRead } from "../../verb.ts";
import { rackVerbs } from "./def.ts";
import { contentsOf } from "./occupants.ts";

const rackKind = { label: "Rack", entityType: "rack", table: racks, columns: { id: racks.id } };

export const rackElevation = defineRead({ scope: rackVerbs.scopes.read }, async (ctx, { rackId }: { rackId: number }) => {
  const rack = await loadRow(ctx.db, rackKind, rackId);
  const numbering = rack.numbering as Numbering;
  const [contents, unplaced] = await Promise.all([
    contentsOf(ctx.db, [rack.id]),
    ctx.db
      .select({ id: hardware.id, name: hardware.name })
      .from(hardware)
      .where(and(eq(hardware.rack_id, rack.id), or(isNull(hardware.rack_unit), eq(hardware.u_height, 0))))
      .orderBy(asc(hardware.name), asc(hardware.id)),
  ]);
  const { nodes, reservations } = contents.get(rack.id)!;
  return {
    rack_id: rack.id,
    name: rack.name,
    u_height: rack.u_height,
    numbering,
    units: elevationUnits(rack.u_height, numbering, nodes, reservations),
    unplaced,
    utilisation: utilisationOf(rack.u_height, nodes, reservations),
  };
});
