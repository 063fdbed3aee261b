// [security] GET /security/status: public (docs/architecture.md, API contracts), the login page's question "is sign-in on?".
import type { Hono } from "hono";
import { SecurityStatus } from "../../shared/schemas/branding.ts";
import { securityStatus } from "../../shared/verbs/security-status/status.ts";
import { verbContext } from "../context.ts";
import type { AppEnv } from "../deps.ts";
import { route } from "../openapi/route.ts";

export function securityStatusRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/security/status",
      tag: "security",
      auth: "public",
      response: { schema: SecurityStatus },
      summary: "Whether authentication is in force and any account exists (anonymous); a warning only while it is not",
    },
    async (c, { reply }) => reply(await securityStatus({ ctx: verbContext(c) })),
  );
}
