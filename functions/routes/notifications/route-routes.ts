// [notifications] /notifications/routes*: which alerts reach which sink.
import type { Context, Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  RouteCreateBody,
  RouteList,
  RouteListQuery,
  RouteOut,
  RoutePatchBody,
  type RouteShape,
  StatusOk,
} from "../../../shared/schemas/notifications.ts";
import { createRoute, deleteRoute, getRoute, listRoutes, patchRoute } from "../../../shared/verbs/notifications/alert-routes.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/notifications/routes";
const RouteParam = IdParam("route_id");

/** The route's version (its updated_at in epoch ms) as the ETag a PATCH or DELETE sends back in If-Match. */
function withVersion(c: Context<AppEnv>, r: RouteShape): RouteShape {
  c.header("ETag", `W/"${Date.parse(r.updated_at)}"`);
  return r;
}

const PAGING =
  " `escalation_policy_id` names an escalation policy (GET /notifications/escalation-policies): an incident this route sends is escalated while it stays open and unacknowledged. " +
  '`quiet_hours` {timezone (IANA), windows [{days ["mon", ...], start "22:00", end "07:00"}], hold_below "warning" | "critical"}: during a window, alerts below `hold_below` are held ' +
  "and sent as one digest per sink when the quiet period ends; critical alerts always pass. A window ending at or before its start ends the next day.";

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
        "narrow it to alerts whose target lies in that scope. A sink gets an alert once even when several routes match." +
        PAGING,
    },
    async (c, { body, reply }) => reply(withVersion(c, await createRoute({ ctx: verbContext(c), input: body })), 201),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/:route_id`,
      tag: "notifications",
      scope: getRoute.scope,
      params: RouteParam,
      response: { schema: RouteOut },
      summary: "One notification route",
      description: "The ETag is the route's version.",
    },
    async (c, { params, reply }) => reply(withVersion(c, await getRoute({ ctx: verbContext(c), input: { id: params.route_id } }))),
  );

  route(
    app,
    {
      method: "patch",
      path: `${V1}/:route_id`,
      tag: "notifications",
      scope: patchRoute.scope,
      params: RouteParam,
      body: RoutePatchBody,
      response: { schema: RouteOut },
      errors: [404, 412],
      summary: "Change a notification route",
      description: `Only the fields given change (null clears a policy or the quiet hours). With \`If-Match\` (the ETag of GET) a route changed since is a 412.${PAGING}`,
    },
    async (c, { params, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchRoute({ ctx: verbContext(c), input: { id: params.route_id, body, ifMatch: parseIfMatch(c.req.header("if-match")) } }),
        ),
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: `${V1}/:route_id`,
      tag: "notifications",
      scope: deleteRoute.scope,
      params: RouteParam,
      response: { schema: StatusOk },
      errors: [412],
      summary: "Delete a notification route",
      description: "With `If-Match` (the ETag of GET) a route changed since is a 412.",
    },
    async (c, { params, reply }) =>
      reply(await deleteRoute({ ctx: verbContext(c), input: { id: params.route_id, ifMatch: parseIfMatch(c.req.header("if-match")) } })),
  );
}
