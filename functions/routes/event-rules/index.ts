// [notifications] event rules (issue 33 item 5, docs/event-rules.md): CRUD of /event-rules on the resource
// engine (list envelope, 201, ETag/If-Match), and their deliveries with the replay of one.
import type { Hono } from "hono";
import {
  EventDeliveryList,
  EventDeliveryListQuery,
  EventDeliveryOut,
  EventRule,
  EventRuleCreate,
  EventRuleListQuery,
  EventRulePatch,
} from "../../../shared/schemas/event-rules.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { listEventDeliveries, replayEventDelivery } from "../../../shared/verbs/event-rules/deliveries.ts";
import { eventRuleVerbs } from "../../../shared/verbs/event-rules/def.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";

const V1 = "/api/v1/event-rules";

export function eventRuleRoutes(app: Hono<AppEnv>): void {
  // Before {event_rule_id}, which would take "deliveries" for an id.
  route(
    app,
    {
      method: "get",
      path: `${V1}/deliveries`,
      tag: "notifications",
      scope: listEventDeliveries.scope,
      query: EventDeliveryListQuery,
      response: { schema: EventDeliveryList },
      summary: "List the event rules' deliveries (state pending | retrying | delivered | dead, the body sent, the attempts)",
    },
    async (c, { query, reply }) => reply(await listEventDeliveries({ ctx: verbContext(c), input: query })),
  );
  route(
    app,
    {
      method: "post",
      path: `${V1}/deliveries/:delivery_id/replay`,
      tag: "notifications",
      scope: replayEventDelivery.scope,
      params: IdParam("delivery_id"),
      response: { schema: EventDeliveryOut },
      errors: [409],
      summary: "Queue a delivered or dead event delivery again with a fresh attempt budget",
    },
    async (c, { params, reply }) =>
      reply(
        await replayEventDelivery({
          ctx: verbContext(c),
          input: { id: params.delivery_id, maxAttempts: c.get("deps").config.NOTIFICATION_MAX_ATTEMPTS },
        }),
      ),
  );
  resourceRoutes(app, {
    verbs: eventRuleVerbs,
    tag: "notifications",
    basePath: V1,
    idParam: "event_rule_id",
    noun: ["event rule", "event rules"],
    item: EventRule,
    create: EventRuleCreate,
    patch: EventRulePatch,
    query: EventRuleListQuery,
    writeDescription:
      "kinds: inventory kinds (hardware, service, ...); actions: created, updated, deleted; tag, site_id and condition {field, op: eq|neq|in|contains, value} narrow it (either the object before or after the change must match); sink_ids: webhook sinks only (422 naming the field otherwise). A matching change queues one signed delivery per sink in the change's own transaction (docs/event-rules.md).",
  });
}
