// [maps] /maps (list with pins, create), /maps/{map_id} (patch, delete), geographic pins and objects
// placed on a map. Scope resource `layout`.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { EntityPath, MapCreate, MapEntityPath, MapEntity, MapList, MapListQuery, MapPatch, MapView, Pin, PinInput, PlaceInput } from "../../../shared/schemas/maps.ts";
import { removePin, setPin } from "../../../shared/services/maps/pins.ts";
import { placeOnMap, removeFromMap } from "../../../shared/services/maps/placements.ts";
import { listMaps, mapsVerbs } from "../../../shared/services/maps/verbs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const tag = "maps" as const;
const params = IdParam("map_id");
const { scopes } = mapsVerbs;

export function mapsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/maps", tag, scope: scopes.read, query: MapListQuery,
      summary: "List maps with the objects placed on them, and every geographic pin",
      description: "Paged like every list (limit, offset, sort, direction, q). The body also carries `pins`: all geographic pins (one per object), whatever the page.",
      response: { schema: MapList },
    },
    async (c, { query }) => c.json(await listMaps({ ctx: verbContext(c), params: query })),
  );

  route(
    app,
    { method: "post", path: "/api/v1/maps", tag, scope: scopes.write, body: MapCreate, summary: "Create a map", response: { status: 201, schema: MapView } },
    async (c, { body }) => c.json((await mapsVerbs.create({ ctx: verbContext(c), input: body })).item, 201),
  );

  route(
    app,
    { method: "patch", path: "/api/v1/maps/:map_id", tag, scope: scopes.write, params, body: MapPatch, summary: "Change some fields of a map", response: { schema: MapView } },
    async (c, { params: p, body }) => c.json((await mapsVerbs.update({ ctx: verbContext(c), id: p.map_id!, input: body })).item),
  );

  route(
    app,
    { method: "delete", path: "/api/v1/maps/:map_id", tag, scope: scopes.delete, params, summary: "Delete a map (its placements go with it)", response: { status: 204, description: "Deleted" } },
    async (c, { params: p }) => {
      await mapsVerbs.remove({ ctx: verbContext(c), id: p.map_id! });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/maps/pin", tag, scope: "write:layout", body: PinInput,
      summary: "Pin an inventory object to a geographic position (creates or moves its one pin)",
      description: "201 when the pin is new, 200 when it moved. The object must exist (422).",
      response: { status: 201, schema: Pin },
    },
    async (c, { body }) => {
      const { pin, created } = await setPin({ ctx: verbContext(c), input: body });
      return c.json(pin, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/maps/pin/:entity_type/:entity_id", tag, scope: "write:layout", params: EntityPath,
      summary: "Remove an object's pin", response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removePin({ ctx: verbContext(c), ref: p });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/maps/:map_id/entities", tag, scope: "write:layout", params, body: PlaceInput,
      summary: "Place an inventory object on a map at x/y (or move it there)",
      description: "201 when placed, 200 when an object already on the map moved. The object must exist (422).",
      response: { status: 201, schema: MapEntity },
    },
    async (c, { params: p, body }) => {
      const { entity, created } = await placeOnMap({ ctx: verbContext(c), mapId: p.map_id!, input: body });
      return c.json(entity, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/maps/:map_id/entities/:entity_type/:entity_id", tag, scope: "write:layout",
      params: MapEntityPath,
      summary: "Take an object off a map", response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removeFromMap({ ctx: verbContext(c), mapId: p.map_id, ref: p });
      return c.body(null, 204);
    },
  );
}
