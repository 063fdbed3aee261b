// The integrations routes (catalogue groups integrations and the hypervisor integration, and
// /discovery/proxmox-runs*). Fixed paths first: Hono tries routes in registration order, and
// /integrations/{id} would otherwise claim /integrations/monitors and /integrations/registry.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { hvRoutes } from "./hv-routes.ts";
import { monitoringRoutes } from "./monitoring-routes.ts";
import { providersRoutes } from "./providers-routes.ts";
import { runsRoutes } from "./runs-routes.ts";

export function integrationsRoutes(app: Hono<AppEnv>): void {
  runsRoutes(app);
  providersRoutes(app); // before hvRoutes: /integrations/hv/config is the provider hv's configs
  hvRoutes(app);
  monitoringRoutes(app); // last: its /integrations/{id} must not claim /integrations/hv*
}
