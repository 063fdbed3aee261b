// Reservations of a rack's units (both faces), with the reason and who made them. Each write locks the
// rack's row, like a placement, and refuses units past the rack's top or taken by a node or another
// reservation (409 naming it).
import { asc, eq } from "drizzle-orm";
import { rackReservations, racks } from "../../../db/schema/index.ts";
import { occupantAt, takenText, unitsText } from "../../../domain/racks/rack-units.ts";
import { ApiError } from "../../../errors.ts";
import { iso } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { defineRead } from "../../verb.ts";
import { contentsOf } from "./occupants.ts";
import { lockRack } from "./placement.ts";

type Row = typeof rackReservations.$inferSelect;

export const reservationVerbs = resourceVerbs(
  defineResource({
    label: "Rack reservation",
    entityType: "rack_reservation",
    scopeResource: "racks",
    table: rackReservations,
    columns: { id: rackReservations.id, version: rackReservations.version },
    channels: ["inventory"],
    list: { sortable: { first_unit: rackReservations.first_unit }, search: [rackReservations.reason] },
    async toValues(s, input, existing) {
      const merged = { ...existing, ...input };
      const rack = await lockRack(s.tx, merged.rack_id!);
      const first = merged.first_unit!;
      const count = merged.u_count ?? 1;
      const where = `rack '${rack.name}' (id ${rack.id})`;
      if (first + count - 1 > rack.u_height) {
        const msg = `${unitsText(first, count)} run past ${where}, which has ${rack.u_height} U.`;
        throw ApiError.conflict(msg, { fields: { first_unit: msg } });
      }
      const contents = (await contentsOf(s.tx, [rack.id])).get(rack.id)!;
      const others = contents.reservations.filter((r) => r.id !== existing?.id);
      const taken = occupantAt(first, count, "both", contents.nodes, others);
      if (taken) {
        const msg = `In ${where}, ${takenText(first, count, "both", taken)}`;
        throw ApiError.conflict(msg, { fields: { first_unit: msg } });
      }
      return existing ? input : { ...input, created_by: s.ctx.actor?.email ?? s.ctx.actor?.role ?? null };
    },
    async present(_db, rows) {
      return rows.map(presentReservation);
    },
  }),
);

export function presentReservation(r: Row) {
  return {
    id: r.id,
    rack_id: r.rack_id,
    first_unit: r.first_unit,
    u_count: r.u_count,
    last_unit: r.first_unit + r.u_count - 1,
    reason: r.reason,
    created_by: r.created_by,
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** A rack's reservations, lowest unit first (404 for an unknown rack). */
export const listReservations = defineRead({ scope: reservationVerbs.scopes.read }, async (ctx, { rackId }: { rackId: number }) => {
  await requireRow(ctx.db, racks, racks.id, rackId, "Rack");
  const rows = await ctx.db
    .select()
    .from(rackReservations)
    .where(eq(rackReservations.rack_id, rackId))
    .orderBy(asc(rackReservations.first_unit), asc(rackReservations.id));
  return { items: rows.map(presentReservation) };
});

/** The reservation when it belongs to the rack the path names; 404 otherwise. */
export const reservationOfRack = defineRead(
  { scope: reservationVerbs.scopes.read },
  async (ctx, { rackId, id }: { rackId: number; id: number }) => {
    const found = await reservationVerbs.get({ ctx, input: { id } });
    if (found.item.rack_id !== rackId) throw ApiError.notFound("Rack reservation", id);
    return found;
  },
);
