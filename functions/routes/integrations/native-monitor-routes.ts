// [integrations] the built-in monitors: GET/POST /integrations/native/monitors and DELETE
// /integrations/native/monitors/{id} (reference-contracts.md 5.A). Registered by monitoring-routes.ts
// before /integrations/{id}.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";

export function nativeMonitorRoutes(app: Hono<AppEnv>): void {
  void app;
}
