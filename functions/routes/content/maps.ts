// [maps] /maps (list with pins, create), /maps/{map_id} (patch, delete), geographic pins and objects
// placed on a map. Scope resource `layout`.
import type { Hono } from "hono";
import {
  EntityPath,
  MapCreate,
  MapEntityPath,
  MapEntity,
  MapList,
  MapListQuery,
  MapPatch,
  MapView,
  Pin,
  PinInput,
  PlaceInput,
} from "../../../shared/schemas/maps.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { mapsVerbs } from "../../../shared/verbs/maps/def.ts";
import { listMaps } from "../../../shared/verbs/maps/list-maps.ts";
import { removePin, setPin } from "../../../shared/verbs/maps/pins.ts";
import { placeOnMap, removeFromMap } from "../../../shared/verbs/maps/placements.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";

const tag = "maps" as const;

export function mapsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/maps",
      tag,
      scope: listMaps.scope,
      query: MapListQuery,
      summary: "List maps with the objects placed on them, and every geographic pin",
      description:
        "Paged like every list (limit, offset, sort, direction, q). The body also carries `pins`: all geographic pins (one per object), whatever the page.",
      response: { schema: MapList },
    },
    async (c, { query, reply }) => reply(await listMaps({ ctx: verbContext(c), input: query })),
  );

  resourceRoutes(app, {
    verbs: mapsVerbs,
    tag,
    basePath: "/api/v1/maps",
    idParam: "map_id",
    noun: ["map", "maps"],
    item: MapView,
    create: MapCreate,
    patch: MapPatch,
    get: false,
    summaries: { patch: "Change some fields of a map", delete: "Delete a map (its placements go with it)" },
  });

  route(
    app,
    {
      method: "post",
      path: "/api/v1/maps/pin",
      tag,
      scope: setPin.scope,
      body: PinInput,
      summary: "Pin an inventory object to a geographic position (creates or moves its one pin)",
      description: "201 when the pin is new, 200 when it moved. The object must exist (422).",
      response: { status: 201, schema: Pin },
    },
    async (c, { body, reply }) => {
      const { pin, created } = await setPin({ ctx: verbContext(c), input: body });
      return reply(pin, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/maps/pin/:entity_type/:entity_id",
      tag,
      scope: removePin.scope,
      params: EntityPath,
      summary: "Remove an object's pin",
      response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removePin({ ctx: verbContext(c), input: p });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/maps/:map_id/entities",
      tag,
      scope: placeOnMap.scope,
      params: IdParam("map_id"),
      body: PlaceInput,
      summary: "Place an inventory object on a map at x/y (or move it there)",
      description: "201 when placed, 200 when an object already on the map moved. The object must exist (422).",
      response: { status: 201, schema: MapEntity },
    },
    async (c, { params: p, body, reply }) => {
      const { entity, created } = await placeOnMap({ ctx: verbContext(c), input: { mapId: p.map_id, place: body } });
      return reply(entity, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/maps/:map_id/entities/:entity_type/:entity_id",
      tag,
      scope: removeFromMap.scope,
      params: MapEntityPath,
      summary: "Take an object off a map",
      response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removeFromMap({ ctx: verbContext(c), input: { mapId: p.map_id, ref: p } });
      return c.body(null, 204);
    },
  );
}
