// Where a hardware node may be mounted (ADR 0480), checked in the node's write transaction (create,
// PATCH, PUT, bulk update). The rack's row is locked first, so two placements into the same rack are
// checked one after the other and cannot both take the same units. A node without a rack keeps the
// old free-form meaning of rack_unit and is not checked (ADR 0481).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { type hardware, racks, sites } from "../../../db/schema/index.ts";
import { faceOf, heightOf, occupantAt, takenText, unitsText } from "../../../domain/racks/rack-units.ts";
import { ApiError } from "../../../errors.ts";
import type { VerbScope } from "../../verb.ts";
import { contentsOf } from "./occupants.ts";

type HardwareRow = typeof hardware.$inferSelect;
type HardwareValues = Partial<typeof hardware.$inferInsert>;
type RackRow = typeof racks.$inferSelect;

/** The fields whose change moves a node in its rack. */
const PLACEMENT_FIELDS = ["rack_id", "rack_unit", "u_height", "rack_face", "site_id"] as const;

const invalid = (field: string, msg: string) => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);

/** The rack's row, locked for the rest of the transaction; a 422 naming `field` when there is none. */
export async function lockRack(db: Db, id: number, field?: string): Promise<RackRow> {
  const [rack] = await db.select().from(racks).where(eq(racks.id, id)).for("update");
  if (rack) return rack;
  if (field) throw invalid(field, `Rack ${id} was not found.`);
  throw ApiError.notFound("Rack", id);
}

async function siteName(db: Db, id: number): Promise<string> {
  const [row] = await db.select({ name: sites.name }).from(sites).where(eq(sites.id, id));
  return row ? `'${row.name}' (id ${id})` : `${id}`;
}

/** Whether placementValues checks this write against the rack's other nodes (a batched write then writes it on its own). */
export function placementChecked(input: HardwareValues, existing: HardwareRow | undefined): boolean {
  return PLACEMENT_FIELDS.some((f) => f in input) && { ...existing, ...input }.rack_id != null;
}

/** The node's values with what placement derives (the rack's site, the front face), or a 409/422. */
export async function placementValues(s: VerbScope, input: HardwareValues, existing: HardwareRow | undefined): Promise<HardwareValues> {
  if (!PLACEMENT_FIELDS.some((f) => f in input)) return input;
  const merged = { ...existing, ...input };
  if (merged.rack_id == null) return input;
  const rack = await lockRack(s.tx, merged.rack_id, "rack_id");
  const values: HardwareValues = { ...input };
  if (merged.site_id == null) values.site_id = rack.site_id;
  else if (merged.site_id !== rack.site_id)
    throw invalid(
      "rack_id",
      `Rack '${rack.name}' (id ${rack.id}) is at site ${await siteName(s.tx, rack.site_id)}, not at this node's site ${await siteName(s.tx, merged.site_id)}.`,
    );
  if (merged.rack_unit == null) return values;
  const first = merged.rack_unit;
  const height = heightOf(merged.u_height);
  if (height === 0) throw invalid("rack_unit", "A 0 U node takes no unit of the rack: leave rack_unit empty.");
  if (first < 1) throw invalid("rack_unit", `Units of rack '${rack.name}' are numbered 1 to ${rack.u_height}.`);
  if (merged.rack_face == null) values.rack_face = "front";
  const face = faceOf(merged.rack_face);
  const where = `rack '${rack.name}' (id ${rack.id})`;
  if (first + height - 1 > rack.u_height) {
    const msg = `${unitsText(first, height)} run past ${where}, which has ${rack.u_height} U: a ${height} U node fits at unit ${rack.u_height - height + 1} at the highest.`;
    throw ApiError.conflict(msg, { fields: { rack_unit: msg } });
  }
  const contents = (await contentsOf(s.tx, [rack.id])).get(rack.id)!;
  const others = contents.nodes.filter((n) => n.id !== existing?.id);
  const taken = occupantAt(first, height, face, others, contents.reservations);
  if (taken) {
    const msg = `In ${where}, ${takenText(first, height, face, taken)}`;
    const occupant =
      taken.kind === "hardware"
        ? { type: "hardware", id: taken.node.id, name: taken.node.name }
        : { type: "reservation", id: taken.reservation.id, reason: taken.reservation.reason };
    throw ApiError.conflict(msg, { fields: { rack_unit: msg }, occupant });
  }
  return values;
}
