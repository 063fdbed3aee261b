import type { Hono } from "hono";
import * as v from "valibot";
import { initializeFirstAdmin } from "../../../shared/services/bootstrap/initialize.ts";
import { bootstrapStatus } from "../../../shared/services/bootstrap/status.ts";
import { serviceContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { respondLogin } from "../auth/respond.ts";
import { Email, Password, SessionResponse } from "../auth/schemas.ts";

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

  route(
    app,
    {
      method: "post", path: "/api/v1/bootstrap/initialize", tag: "bootstrap", auth: "public",
      summary: "Create the first administrator (needs the setup token); answers like a login",
      description: "The setup token is SVC_SETUP_TOKEN, or the one the server logged at first start. Once an administrator exists this answers 409.",
      body: v.object({
        email: Email,
        password: Password,
        display_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
        setup_token: v.pipe(v.string(), v.minLength(1, "The setup token is required.")),
      }),
      response: { schema: SessionResponse },
      errors: [403, 409],
    },
    async (c, { body }) => {
      const deps = c.get("deps");
      const ctx = serviceContext(c);
      const result = await initializeFirstAdmin({
        ctx,
        input: body,
        signingKey: await deps.identity.signingKey(ctx.db),
        configuredSetupToken: deps.config.SVC_SETUP_TOKEN,
        userAgent: c.req.header("user-agent") ?? null,
      });
      deps.identity.markBootstrapped();
      return respondLogin(c, { kind: "session", ...result });
    },
  );
}
