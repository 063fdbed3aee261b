// The discovery routes (catalogue groups discovery and discovery-ws; ip-check; POST /ipam/scan/{network_id}).
// Fixed paths first: Hono tries routes in registration order, and /discovery/jobs/{job_id} would
// otherwise claim paths below it.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { agentsDiscoveryRoutes } from "./agents-routes.ts";
import { controlRoutes } from "./control-routes.ts";
import { dockerRoutes } from "./docker-routes.ts";
import { ipCheckRoutes } from "./ip-check-routes.ts";
import { ipamScanRoutes } from "./ipam-scan-routes.ts";
import { jobsRoutes } from "./jobs-routes.ts";
import { listenerRoutes } from "./listener-routes.ts";
import { lldpRoutes } from "./lldp-routes.ts";
import { profilesRoutes } from "./profiles-routes.ts";
import { resultsRoutes } from "./results-routes.ts";

export function discoveryRoutes(app: Hono<AppEnv>): void {
  ipCheckRoutes(app);
  agentsDiscoveryRoutes(app);
  dockerRoutes(app);
  lldpRoutes(app);
  ipamScanRoutes(app);
  resultsRoutes(app);
  jobsRoutes(app);
  controlRoutes(app);
  listenerRoutes(app);
  profilesRoutes(app);
}
