// Operations the spec removes by decision (7.3): tenants (single-tenant service) and self-service
// password recovery (recovery is administrator-mediated or uses the vault key).
import type { Hono } from "hono";
import { ApiError } from "../../shared/errors.ts";
import type { AppEnv } from "../deps.ts";
import { route } from "../openapi/route.ts";

const ALL = ["get", "post", "put", "patch", "delete", "options"] as const;

export function goneRoutes(app: Hono<AppEnv>): void {
  const tenantsGone = () => {
    throw new ApiError("GONE", "Tenants were removed: this service is single-tenant.");
  };
  route(
    app,
    { method: [...ALL], path: "/api/v1/tenants", tag: "tenants", summary: "Removed (single-tenant)", auth: "public", errors: [410] },
    tenantsGone,
  );
  route(
    app,
    {
      method: [...ALL],
      path: "/api/v1/tenants/:legacy_path{.+}",
      tag: "tenants",
      summary: "Removed (single-tenant)",
      auth: "public",
      errors: [410],
    },
    tenantsGone,
  );
  for (const path of ["/api/v1/auth/forgot-password", "/api/v1/auth/reset-password"]) {
    route(
      app,
      { method: "post", path, tag: "auth", summary: "Removed: no self-service password reset", auth: "public", errors: [410] },
      () => {
        throw new ApiError("GONE", "Self-service password reset is not offered; ask an administrator to reset it, or use the vault key.");
      },
    );
  }
}
