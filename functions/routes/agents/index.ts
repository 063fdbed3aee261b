// The agents' HTTP routes (catalogue groups agents and agents-binary). Fixed paths first: Hono tries
// routes in registration order, and /agents/{agent_id} would otherwise claim /agents/pending and friends.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { adminRoutes } from "./admin-routes.ts";
import { agentRoutes } from "./agent-routes.ts";
import { binaryRoutes } from "./binary-routes.ts";
import { decisionRoutes } from "./decision-routes.ts";
import { fleetRoutes } from "./fleet-routes.ts";
import { deviceKeyRoutes, tlsPinRoutes } from "./key-routes.ts";
import { pairingRoutes } from "./pairing-routes.ts";
import { rolloutRoutes } from "./rollout-routes.ts";

export function agentsRoutes(app: Hono<AppEnv>): void {
  fleetRoutes(app);
  rolloutRoutes(app);
  adminRoutes(app);
  tlsPinRoutes(app);
  pairingRoutes(app);
  binaryRoutes(app);
  agentRoutes(app);
  decisionRoutes(app);
  deviceKeyRoutes(app);
}
