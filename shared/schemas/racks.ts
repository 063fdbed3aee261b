// Racks, their reservations and their elevation (issue 33 item 1, docs/racks.md, ADR 0480).
import * as v from "valibot";
import { Name, OptionalText, patchBody, Ref, Tags, writeBody } from "./fields.ts";
import { IntFilter, listQuery, TextFilter } from "./list-query.ts";

export const RACK_NUMBERINGS = ["bottom_up", "top_down"] as const;
export const RACK_WIDTHS = [10, 19, 21, 23] as const;
export const RACK_FACES = ["front", "rear", "both"] as const;
/** The tallest rack (and so the highest unit) the inventory takes. */
export const MAX_RACK_U = 100;

const Units = (what: string) =>
  v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1, `${what} is 1 to ${MAX_RACK_U}.`),
    v.maxValue(MAX_RACK_U, `${what} is 1 to ${MAX_RACK_U}.`),
  );

const writable = {
  site_id: Ref,
  name: Name,
  u_height: v.optional(Units("A rack's height"), 42),
  numbering: v.optional(v.picklist(RACK_NUMBERINGS, `Must be one of: ${RACK_NUMBERINGS.join(", ")}.`), "bottom_up"),
  width: v.optional(v.picklist(RACK_WIDTHS, `Must be one of: ${RACK_WIDTHS.join(", ")} (inches).`), 19),
  facility_id: OptionalText(100),
  description: OptionalText(2000),
  tags: Tags,
};
const readOnly = ["site_name", "utilisation"];

export const RackCreate = writeBody(writable, readOnly);
export const RackPatch = patchBody(writable, readOnly);

export const RackUtilisation = v.object({
  used_u: v.number(),
  reserved_u: v.number(),
  free_u: v.number(),
  /** used_u of the rack's height, in percent (one decimal). */
  percent: v.number(),
});

export const Rack = v.object({
  id: v.number(),
  site_id: v.number(),
  site_name: v.string(),
  name: v.string(),
  u_height: v.number(),
  numbering: v.picklist(RACK_NUMBERINGS),
  width: v.number(),
  facility_id: v.nullable(v.string()),
  description: v.nullable(v.string()),
  tags: v.array(v.string()),
  utilisation: RackUtilisation,
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const RackListQuery = listQuery(["name", "u_height", "created_at", "updated_at"], { site_id: IntFilter, tag: TextFilter });

const reservationWritable = {
  first_unit: Units("A unit"),
  u_count: v.optional(Units("A reservation's unit count"), 1),
  reason: v.pipe(v.string(), v.trim(), v.minLength(1, "A reservation needs a reason."), v.maxLength(500)),
};
const reservationReadOnly = ["rack_id", "last_unit", "created_by"];

export const RackReservationCreate = writeBody(reservationWritable, reservationReadOnly);
export const RackReservationPatch = patchBody(reservationWritable, reservationReadOnly);

export const RackReservation = v.object({
  id: v.number(),
  rack_id: v.number(),
  first_unit: v.number(),
  u_count: v.number(),
  last_unit: v.number(),
  reason: v.string(),
  created_by: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});
export const RackReservations = v.object({ items: v.array(RackReservation) });

/** What takes a unit on a face: a hardware node or a reservation (which takes both faces). */
export const ElevationOccupant = v.variant("type", [
  v.object({
    type: v.literal("hardware"),
    id: v.number(),
    name: v.string(),
    first_unit: v.number(),
    u_height: v.number(),
    face: v.picklist(RACK_FACES),
  }),
  v.object({ type: v.literal("reservation"), id: v.number(), first_unit: v.number(), u_count: v.number(), reason: v.string() }),
]);

export const RackElevation = v.object({
  rack_id: v.number(),
  name: v.string(),
  u_height: v.number(),
  numbering: v.picklist(RACK_NUMBERINGS),
  /** Every unit in drawing order, top of the rack first. */
  units: v.array(v.object({ unit: v.number(), front: v.nullable(ElevationOccupant), rear: v.nullable(ElevationOccupant) })),
  /** Nodes in the rack without a position (or of 0 U): listed, not drawn. */
  unplaced: v.array(v.object({ id: v.number(), name: v.string() })),
  utilisation: RackUtilisation,
});
