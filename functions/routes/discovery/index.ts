// The discovery routes (catalogue groups discovery and discovery-ws). Fixed paths first: Hono tries routes
// in registration order, and /discovery/jobs/{job_id} would otherwise claim paths below it.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { lldpRoutes } from "./lldp-routes.ts";
import { ipamScanRoutes } from "./ipam-scan-routes.ts";
import { agentsDiscoveryRoutes } from "./agents-routes.ts";
import { dockerRoutes } from "./docker-routes.ts";
import { ipCheckRoutes } from "./ip-check-routes.ts";
import { jobsRoutes } from "./jobs-routes.ts";
import { controlRoutes } from "./control-routes.ts";
import { profilesRoutes } from "./profiles-routes.ts";
import { resultsRoutes } from "./results-routes.ts";

export function discoveryRoutes(app: Hono<AppEnv>): void {
  void app;
  lldpRoutes(app);
  ipamScanRoutes(app);
  ipCheckRoutes(app);
  agentsDiscoveryRoutes(app);
  dockerRoutes(app);
  resultsRoutes(app);
  jobsRoutes(app);
  controlRoutes(app);
  profilesRoutes(app);
}
