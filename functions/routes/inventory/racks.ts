// [racks] /racks, /racks/{rack_id} (GET, PATCH, DELETE), /racks/{rack_id}/elevation and the rack's
// reservations /racks/{rack_id}/reservations[/{reservation_id}] (docs/racks.md).
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  Rack,
  RackCreate,
  RackElevation,
  RackListQuery,
  RackPatch,
  RackReservation,
  RackReservationCreate,
  RackReservationPatch,
  RackReservations,
} from "../../../shared/schemas/racks.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { rackVerbs } from "../../../shared/verbs/inventory/racks/def.ts";
import { rackElevation } from "../../../shared/verbs/inventory/racks/elevation.ts";
import { listReservations, reservationOfRack, reservationVerbs } from "../../../shared/verbs/inventory/racks/reservations.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes, withEtag } from "./resource-routes.ts";

export function rackRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: rackVerbs,
    tag: "racks",
    basePath: "/api/v1/racks",
    idParam: "rack_id",
    noun: ["rack", "racks"],
    bulk: { tags: true },
    item: Rack,
    create: RackCreate,
    patch: RackPatch,
    query: RackListQuery,
    writeDescription:
      "name is unique per site (409). u_height 1-100 (default 42), numbering bottom_up (unit 1 at the bottom, default) or top_down, width 10, 19, 21 or 23 inches. Shrinking below a node or reservation, or moving to another site while holding nodes, is a 409 naming it.",
    deleteDescription: "409 naming the hardware mounted in it; its reservations go with it.",
  });

  const rackParam = IdParam("rack_id");
  const reservationParams = IdParam("rack_id", "reservation_id");
  const base = "/api/v1/racks/:rack_id/reservations";

  route(
    app,
    {
      method: "get",
      path: "/api/v1/racks/:rack_id/elevation",
      tag: "racks",
      scope: rackElevation.scope,
      params: rackParam,
      summary: "The rack's units, top first, with what takes each on the front and on the rear",
      response: { schema: RackElevation },
    },
    async (c, { params: p, reply }) => reply(await rackElevation({ ctx: verbContext(c), input: { rackId: p.rack_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: base,
      tag: "racks",
      scope: listReservations.scope,
      params: rackParam,
      summary: "The rack's reservations",
      response: { schema: RackReservations },
    },
    async (c, { params: p, reply }) => reply(await listReservations({ ctx: verbContext(c), input: { rackId: p.rack_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: base,
      tag: "racks",
      scope: reservationVerbs.create.scope,
      params: rackParam,
      summary: "Reserve units of the rack (both faces) with a reason",
      description: "409 naming the node or reservation that takes one of the units, or when the units run past the rack's top.",
      body: RackReservationCreate,
      response: { status: 201, schema: RackReservation },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      withEtag(c, await reservationVerbs.create({ ctx: verbContext(c), input: { ...body, rack_id: p.rack_id } }), reply),
  );

  route(
    app,
    {
      method: "get",
      path: `${base}/:reservation_id`,
      tag: "racks",
      scope: reservationOfRack.scope,
      params: reservationParams,
      summary: "Get a reservation of the rack",
      response: { schema: RackReservation },
    },
    async (c, { params: p, reply }) =>
      withEtag(c, await reservationOfRack({ ctx: verbContext(c), input: { rackId: p.rack_id, id: p.reservation_id } }), reply),
  );

  route(
    app,
    {
      method: "patch",
      path: `${base}/:reservation_id`,
      tag: "racks",
      scope: reservationVerbs.update.scope,
      params: reservationParams,
      summary: "Change a reservation's units or reason (If-Match honoured)",
      body: RackReservationPatch,
      response: { schema: RackReservation },
      errors: [409, 412],
    },
    async (c, { params: p, body, reply }) => {
      const ctx = verbContext(c);
      await reservationOfRack({ ctx, input: { rackId: p.rack_id, id: p.reservation_id } });
      const ifMatch = parseIfMatch(c.req.header("if-match"));
      return withEtag(c, await reservationVerbs.update({ ctx, input: { id: p.reservation_id, values: body, ifMatch } }), reply);
    },
  );

  route(
    app,
    {
      method: "delete",
      path: `${base}/:reservation_id`,
      tag: "racks",
      scope: reservationVerbs.remove.scope,
      params: reservationParams,
      summary: "Release a reservation",
      response: { status: 204, description: "Deleted" },
      errors: [412],
    },
    async (c, { params: p }) => {
      const ctx = verbContext(c);
      await reservationOfRack({ ctx, input: { rackId: p.rack_id, id: p.reservation_id } });
      await reservationVerbs.remove({ ctx, input: { id: p.reservation_id, ifMatch: parseIfMatch(c.req.header("if-match")) } });
      return c.body(null, 204);
    },
  );
}
