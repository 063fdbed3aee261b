// The notifications routes (catalogue group notifications, plus our deliveries, alerts and acknowledge links).
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { ackLinkRoutes } from "./ack-link-routes.ts";
import { alertRoutes } from "./alert-routes.ts";
import { deliveryRoutes } from "./delivery-routes.ts";
import { eventRuleRoutes } from "../event-rules/index.ts";
import { escalationPolicyRoutes } from "./escalation-policy-routes.ts";
import { routeRoutes } from "./route-routes.ts";
import { sinkRoutes } from "./sink-routes.ts";
import { templateRoutes } from "./template-routes.ts";

export function notificationsRoutes(app: Hono<AppEnv>): void {
  sinkRoutes(app);
  routeRoutes(app);
  escalationPolicyRoutes(app);
  deliveryRoutes(app);
  alertRoutes(app);
  ackLinkRoutes(app);
  templateRoutes(app);
  eventRuleRoutes(app);
}
