// The notifications routes (catalogue group notifications, plus our deliveries).
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { deliveryRoutes } from "./delivery-routes.ts";
import { escalationPolicyRoutes } from "./escalation-policy-routes.ts";
import { routeRoutes } from "./route-routes.ts";
import { sinkRoutes } from "./sink-routes.ts";

export function notificationsRoutes(app: Hono<AppEnv>): void {
  sinkRoutes(app);
  routeRoutes(app);
  escalationPolicyRoutes(app);
  deliveryRoutes(app);
}
