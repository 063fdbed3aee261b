import type { Hono } from "hono";
import * as v from "valibot";
import { bootstrapStatus } from "../../../shared/services/bootstrap/status.ts";
import { serviceContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BootstrapStatus = v.object({ bootstrapped: v.boolean(), needs_bootstrap: v.boolean() });

export function bootstrapRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/bootstrap/status", tag: "bootstrap", auth: "public",
      summary: "Whether first-run set-up is still needed (anonymous, always)",
      response: { schema: BootstrapStatus },
    },
    async (c) => c.json(await bootstrapStatus({ ctx: serviceContext(c) })),
  );
}
