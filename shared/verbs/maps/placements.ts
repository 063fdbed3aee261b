// Objects placed on a map: POST /maps/{map_id}/entities places (or moves) one, DELETE removes it.
import { and, eq } from "drizzle-orm";
import { mapEntities, maps } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { type EntityRef, LABELS, type EntityType, requireEntity } from "../docs/entity-refs.ts";
import { defineVerb, type VerbScope } from "../verb.ts";

export interface PlaceInput extends EntityRef {
  x?: number | null | undefined;
  y?: number | null | undefined;
}

async function lockMap(s: VerbScope, mapId: number): Promise<void> {
  const [row] = await s.tx.select({ id: maps.id }).from(maps).where(eq(maps.id, mapId)).for("update");
  if (!row) throw ApiError.notFound("Map", mapId);
}

const placement = (mapId: number, ref: EntityRef) =>
  and(eq(mapEntities.map_id, mapId), eq(mapEntities.entity_type, ref.entity_type), eq(mapEntities.entity_id, ref.entity_id));

export const placeOnMap = defineVerb(
  { scope: "write:layout" },
  async (s, { mapId, place: input }: { mapId: number; place: PlaceInput }) => {
    await lockMap(s, mapId);
    const name = await requireEntity(s.tx, input);
    const [before] = await s.tx.select().from(mapEntities).where(placement(mapId, input));
    const values = { map_id: mapId, entity_type: input.entity_type, entity_id: input.entity_id, x: input.x ?? null, y: input.y ?? null };
    await s.tx
      .insert(mapEntities)
      .values(values)
      .onConflictDoUpdate({
        target: [mapEntities.map_id, mapEntities.entity_type, mapEntities.entity_id],
        set: { x: values.x, y: values.y },
      });
    await s.tx.update(maps).set({ updated_at: s.now }).where(eq(maps.id, mapId));
    s.audit({
      action: "map.entity.set",
      category: "inventory",
      entity_type: "map",
      entity_id: mapId,
      diff: before ? { before, after: values } : { after: values },
    });
    s.emit("inventory", { entity: "map", action: "update", id: mapId });
    return { entity: { entity_type: values.entity_type, entity_id: values.entity_id, name, x: values.x, y: values.y }, created: !before };
  },
);

export const removeFromMap = defineVerb({ scope: "write:layout" }, async (s, { mapId, ref }: { mapId: number; ref: EntityRef }) => {
  await lockMap(s, mapId);
  const [row] = await s.tx.delete(mapEntities).where(placement(mapId, ref)).returning();
  if (!row)
    throw new ApiError("RESOURCE_NOT_FOUND", `${LABELS[ref.entity_type as EntityType]} ${ref.entity_id} was not found on map ${mapId}.`);
  await s.tx.update(maps).set({ updated_at: s.now }).where(eq(maps.id, mapId));
  s.audit({ action: "map.entity.delete", category: "inventory", entity_type: "map", entity_id: mapId, diff: { before: row } });
  s.emit("inventory", { entity: "map", action: "update", id: mapId });
});
