// Geographic pins: one per inventory object (POST /maps/pin upserts it), removed by
// DELETE /maps/pin/{entity_type}/{entity_id}, listed in GET /maps's `pins`.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { mapPins } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { type EntityRef, entityNameSql, LABELS, type EntityType, requireEntity } from "../docs/entity-refs.ts";
import { iso } from "../resources/present.ts";
import { defineVerb } from "../verb.ts";

export interface PinInput extends EntityRef {
  latitude: number;
  longitude: number;
  label?: string | null | undefined;
}

const pinColumns = {
  entity_type: mapPins.entity_type,
  entity_id: mapPins.entity_id,
  name: entityNameSql(mapPins.entity_type, mapPins.entity_id),
  latitude: mapPins.latitude,
  longitude: mapPins.longitude,
  label: mapPins.label,
  updated_at: mapPins.updated_at,
};

function present<P extends { updated_at: Date }>({ updated_at, ...pin }: P): Omit<P, "updated_at"> & { updated_at: string } {
  return { ...pin, updated_at: iso(updated_at)! };
}

export async function allPins(db: Db) {
  const rows = await db.select(pinColumns).from(mapPins).orderBy(asc(mapPins.entity_type), asc(mapPins.entity_id));
  return rows.map(present);
}

const samePin = (ref: EntityRef) => and(eq(mapPins.entity_type, ref.entity_type), eq(mapPins.entity_id, ref.entity_id));

/** Creates or moves the object's pin; `created` tells which. */
export const setPin = defineVerb({ scope: "write:layout" }, async (s, input: PinInput) => {
  await requireEntity(s.tx, input);
  const [before] = await s.tx.select().from(mapPins).where(samePin(input)).for("update");
  const values = {
    entity_type: input.entity_type,
    entity_id: input.entity_id,
    latitude: input.latitude,
    longitude: input.longitude,
    label: input.label ?? null,
  };
  await s.tx
    .insert(mapPins)
    .values(values)
    .onConflictDoUpdate({ target: [mapPins.entity_type, mapPins.entity_id], set: { ...values, updated_at: s.now } });
  const { updated_at: _u, created_at: _c, ...old } = before ?? ({} as Partial<typeof mapPins.$inferSelect>);
  s.audit({
    action: "map.pin.set",
    category: "inventory",
    entity_type: input.entity_type,
    entity_id: input.entity_id,
    diff: before ? { before: old, after: values } : { after: values },
  });
  s.emit("inventory", { entity: "map_pin", action: before ? "update" : "create", entity_type: input.entity_type, id: input.entity_id });
  const [pin] = await s.tx.select(pinColumns).from(mapPins).where(samePin(input));
  return { pin: present(pin!), created: !before };
});

export const removePin = defineVerb({ scope: "write:layout" }, async (s, ref: EntityRef) => {
  const [row] = await s.tx.delete(mapPins).where(samePin(ref)).returning();
  if (!row) throw ApiError.notFound("Pin of", `${LABELS[ref.entity_type as EntityType]} ${ref.entity_id}`);
  s.audit({
    action: "map.pin.delete",
    category: "inventory",
    entity_type: ref.entity_type,
    entity_id: ref.entity_id,
    diff: { before: row },
  });
  s.emit("inventory", { entity: "map_pin", action: "delete", entity_type: ref.entity_type, id: ref.entity_id });
});
