// Maps: named canvases of inventory objects placed at x/y, and geographic pins (one per object).
import * as v from "valibot";
import { EntityTypeSchema } from "./docs.ts";
import { listQuery, listResponse } from "./list-query.ts";
import { Name, OptionalNumber, OptionalText, patchBody, Ref, writeBody } from "./fields.ts";

const writable = { name: Name, description: OptionalText(2000), background: OptionalText(2000) };
const readOnly = ["entities"];
export const MapCreate = writeBody(writable, readOnly);
export const MapPatch = patchBody(writable, readOnly);

const Coordinate = OptionalNumber(-1e7, 1e7);

export const MapEntity = v.object({
  entity_type: v.string(),
  entity_id: v.number(),
  name: v.nullable(v.string()),
  x: v.nullable(v.number()),
  y: v.nullable(v.number()),
});
export const MapView = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  background: v.nullable(v.string()),
  entities: v.array(MapEntity),
  created_at: v.string(),
  updated_at: v.string(),
});

export const Pin = v.object({
  entity_type: v.string(),
  entity_id: v.number(),
  name: v.nullable(v.string()),
  latitude: v.number(),
  longitude: v.number(),
  label: v.nullable(v.string()),
  updated_at: v.string(),
});
export const PinInput = v.object({
  entity_type: EntityTypeSchema,
  entity_id: Ref,
  latitude: v.pipe(v.number(), v.minValue(-90, "Must be between -90 and 90."), v.maxValue(90, "Must be between -90 and 90.")),
  longitude: v.pipe(v.number(), v.minValue(-180, "Must be between -180 and 180."), v.maxValue(180, "Must be between -180 and 180.")),
  label: OptionalText(200),
});

export const PlaceInput = v.object({ entity_type: EntityTypeSchema, entity_id: Ref, x: Coordinate, y: Coordinate });

const IdString = v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number));
export const EntityPath = v.object({ entity_type: EntityTypeSchema, entity_id: IdString });
export const MapEntityPath = v.object({ map_id: IdString, entity_type: EntityTypeSchema, entity_id: IdString });

export const MapListQuery = listQuery(["name", "created_at", "updated_at"], {});
/** The list page, plus every geographic pin (the map page shows both). */
export const MapList = v.object({ ...listResponse(MapView).entries, pins: v.array(Pin) });
