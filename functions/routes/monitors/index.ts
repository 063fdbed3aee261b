// The monitors' HTTP routes (catalogue group monitors, plus maintenance windows and threshold alert rules). Fixed paths first: Hono
// tries routes in registration order, and /monitors/{monitor_id} would otherwise claim /monitors/overview.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { alertRuleRoutes } from "./alert-rule-routes.ts";
import { badgeRoutes } from "./badge-routes.ts";
import { collectionRoutes } from "./collection-routes.ts";
import { maintenanceRoutes } from "./maintenance-routes.ts";
import { monitorRoutes } from "./monitor-routes.ts";
import { pushRoutes } from "./push-routes.ts";
import { targetRoutes } from "./target-routes.ts";

export function monitorsRoutes(app: Hono<AppEnv>): void {
  collectionRoutes(app);
  maintenanceRoutes(app);
  targetRoutes(app);
  pushRoutes(app);
  badgeRoutes(app);
  monitorRoutes(app);
  alertRuleRoutes(app);
}
