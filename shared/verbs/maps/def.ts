// Maps as a resource of the resource engine (create, patch, delete with audit diff; the list carries
// the pins too: list-maps.ts); each read carries the map's placed objects with their names, in one extra query
// per page.
import { asc, inArray } from "drizzle-orm";
import { mapEntities, maps } from "../../db/schema/index.ts";
import { entityNameSql } from "../docs/entity-refs.ts";
import { iso } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";

type Row = typeof maps.$inferSelect;

export const mapsVerbs = resourceVerbs(
  defineResource({
    label: "Map",
    entityType: "map",
    // Editors hold write:layout (spec 5.2); deletes need delete:layout (administrators).
    scopeResource: "layout",
    table: maps,
    columns: { id: maps.id },
    list: {
      sortable: { name: maps.name, created_at: maps.created_at, updated_at: maps.updated_at },
      search: [maps.name, maps.description],
    },
    async present(db, rows) {
      const ids = rows.map((r) => r.id);
      const placed =
        ids.length === 0
          ? []
          : await db
              .select({
                map_id: mapEntities.map_id,
                entity_type: mapEntities.entity_type,
                entity_id: mapEntities.entity_id,
                name: entityNameSql(mapEntities.entity_type, mapEntities.entity_id),
                x: mapEntities.x,
                y: mapEntities.y,
              })
              .from(mapEntities)
              .where(inArray(mapEntities.map_id, ids))
              .orderBy(asc(mapEntities.entity_type), asc(mapEntities.entity_id));
      return rows.map((r) =>
        presentMap(
          r,
          placed.filter((p) => p.map_id === r.id).map(({ map_id: _m, ...p }) => p),
        ),
      );
    },
  }),
);

function presentMap(
  r: Row,
  entities: { entity_type: string; entity_id: number; name: string | null; x: number | null; y: number | null }[],
) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    background: r.background,
    entities,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
