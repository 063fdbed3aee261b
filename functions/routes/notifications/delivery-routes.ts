// [notifications] deliveries (ours, beyond the catalogue; docs/architecture.md, API contracts): every delivery with its state and
// attempts, and the replay of one (the dead letter's way out).
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { DeliveryList, DeliveryListQuery, DeliveryOut } from "../../../shared/schemas/notifications.ts";
import { listDeliveries, replayDelivery } from "../../../shared/verbs/notifications/deliveries.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/notifications/deliveries";

export function deliveryRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "notifications",
      scope: listDeliveries.scope,
      query: DeliveryListQuery,
      response: { schema: DeliveryList },
      summary: "List notification deliveries (state pending | retrying | delivered | dead, with their attempts)",
    },
    async (c, { query, reply }) => reply(await listDeliveries({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/:delivery_id/replay`,
      tag: "notifications",
      scope: replayDelivery.scope,
      params: IdParam("delivery_id"),
      response: { schema: DeliveryOut },
      errors: [409],
      summary: "Queue a delivered or dead delivery again with a fresh attempt budget",
    },
    async (c, { params, reply }) =>
      reply(
        await replayDelivery({
          ctx: verbContext(c),
          input: { id: params.delivery_id, maxAttempts: c.get("deps").config.NOTIFICATION_MAX_ATTEMPTS },
        }),
      ),
  );
}
