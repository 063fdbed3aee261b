// [notifications] /notifications/routes*: which alerts reach which sink.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { RouteCreateBody, RouteList, RouteListQuery, RouteOut, StatusOk } from "../../../shared/schemas/notifications.ts";
import { createRoute, deleteRoute, listRoutes } from "../../../shared/verbs/notifications/alert-routes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/notifications/routes";

export function routeRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "notifications",
      scope: listRoutes.scope,
      query: RouteListQuery,
      response: { schema: RouteList },
      summary: "List notification routes",
    },
    async (c, { query, reply }) => reply(await listRoutes({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: V1,
      tag: "notifications",
      scope: createRoute.scope,
      body: RouteCreateBody,
      response: { status: 201, schema: RouteOut },
      errors: [404],
      summary: "Create a notification route",
      description:
        "`alert_severity` is a minimum (`*` admits all); `event_kinds` lists admitted kinds (`monitor.down`, `monitor.*`; empty: all); `site_id`, `environment_id` and `tag` " +
        "narrow it to alerts whose target lies in that scope. A sink gets an alert once even when several routes match.",
    },
    async (c, { body, reply }) => reply(await createRoute({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "delete",
      path: `${V1}/:route_id`,
      tag: "notifications",
      scope: deleteRoute.scope,
      params: IdParam("route_id"),
      response: { schema: StatusOk },
      summary: "Delete a notification route",
    },
    async (c, { params, reply }) => reply(await deleteRoute({ ctx: verbContext(c), input: { id: params.route_id } })),
  );
}
