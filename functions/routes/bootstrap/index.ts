import type { Hono } from "hono";
import * as v from "valibot";
import { initializeFirstAdmin } from "../../../shared/verbs/bootstrap/initialize.ts";
import { getOnboarding, setDomain, setOnboardingDismissed } from "../../../shared/verbs/bootstrap/onboarding.ts";
import { bootstrapStatus } from "../../../shared/verbs/bootstrap/status.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { respondLogin } from "../auth/respond.ts";
import { Email, Password, SessionResponse } from "../auth/schemas.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

const BootstrapStatus = v.object({ bootstrapped: v.boolean(), needs_bootstrap: v.boolean() });

export function bootstrapRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/bootstrap/status", tag: "bootstrap", auth: "public",
      summary: "Whether first-run set-up is still needed (anonymous, always)",
      response: { schema: BootstrapStatus },
    },
    async (c) => c.json(await bootstrapStatus({ ctx: verbContext(c) })),
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
      const result = await initializeFirstAdmin(await signInArgs(c, { ...body, configuredSetupToken: deps.config.SVC_SETUP_TOKEN }));
      deps.identity.markBootstrapped();
      return respondLogin(c, { kind: "session", ...result });
    },
  );

  const Step = v.object({ key: v.string(), title: v.string(), done: v.boolean() });
  const Onboarding = v.object({ steps: v.array(Step), completed: v.number(), total: v.number(), dismissed: v.boolean(), public_url: v.nullable(v.string()) });

  route(
    app,
    {
      method: "get", path: "/api/v1/bootstrap/onboarding", tag: "bootstrap", scope: getOnboarding.scope,
      summary: "The set-up checklist, computed from the data (before first run too)", response: { schema: Onboarding },
    },
    async (c) => c.json(await getOnboarding({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "patch", path: "/api/v1/bootstrap/onboarding", tag: "bootstrap", scope: setOnboardingDismissed.scope,
      summary: "Dismiss (or bring back) the set-up checklist", body: v.strictObject({ dismissed: v.boolean() }), response: { schema: Onboarding },
    },
    async (c, { body }) => c.json(await setOnboardingDismissed({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/bootstrap/domain", tag: "bootstrap", scope: setDomain.scope,
      summary: "Record the address operators reach this deployment at (used in invite links)",
      body: v.strictObject({
        public_url: v.pipe(v.string(), v.trim(), v.url("Must be a URL."), v.regex(/^https?:\/\/[^/?#]+\/?$/i, "Must be http(s)://host[:port] with no path.")),
      }),
      response: { schema: v.object({ public_url: v.string() }) },
    },
    async (c, { body }) => c.json(await setDomain({ ctx: verbContext(c), input: { publicUrl: body.public_url } })),
  );
}
