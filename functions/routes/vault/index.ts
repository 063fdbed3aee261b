// The vault's routes (catalogue group vault) and the recovery it allows (POST /auth/vault-reset).
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { vaultAdminRoutes } from "./admin-routes.ts";
import { vaultResetRoutes } from "./reset-route.ts";

export function vaultRoutes(app: Hono<AppEnv>): void {
  vaultAdminRoutes(app);
  vaultResetRoutes(app);
}
