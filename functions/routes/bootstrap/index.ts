import type { Hono } from "hono";
import { SessionResponse } from "../../../shared/schemas/auth.ts";
import { BootstrapStatus, Domain, DomainBody, InitializeBody, Onboarding, OnboardingPatch } from "../../../shared/schemas/bootstrap.ts";
import { initializeFirstAdmin } from "../../../shared/verbs/bootstrap/initialize.ts";
import { getOnboarding, setDomain, setOnboardingDismissed } from "../../../shared/verbs/bootstrap/onboarding.ts";
import { bootstrapStatus } from "../../../shared/verbs/bootstrap/status.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { sessionAnswer } from "../auth/respond.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

export function bootstrapRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/bootstrap/status",
      tag: "bootstrap",
      auth: "public",
      summary: "Whether first-run set-up is still needed (anonymous, always)",
      response: { schema: BootstrapStatus },
    },
    async (c, { reply }) => reply(await bootstrapStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/bootstrap/initialize",
      tag: "bootstrap",
      auth: "public",
      summary: "Create the first administrator (needs the setup token); answers like a login",
      description:
        "The setup token is SVC_SETUP_TOKEN, or the one the server logged at first start. Once an administrator exists this answers 409.",
      body: InitializeBody,
      response: { schema: SessionResponse },
      errors: [403, 409],
    },
    async (c, { body, reply }) => {
      const deps = c.get("deps");
      const result = await initializeFirstAdmin(await signInArgs(c, { ...body, configuredSetupToken: deps.config.SVC_SETUP_TOKEN }));
      deps.identity.markBootstrapped();
      return reply(sessionAnswer(c, { kind: "session", ...result }));
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/bootstrap/onboarding",
      tag: "bootstrap",
      scope: getOnboarding.scope,
      summary: "The set-up checklist, computed from the data (before first run too)",
      response: { schema: Onboarding },
    },
    async (c, { reply }) => reply(await getOnboarding({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/bootstrap/onboarding",
      tag: "bootstrap",
      scope: setOnboardingDismissed.scope,
      summary: "Dismiss (or bring back) the set-up checklist",
      body: OnboardingPatch,
      response: { schema: Onboarding },
    },
    async (c, { body, reply }) => reply(await setOnboardingDismissed({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/bootstrap/domain",
      tag: "bootstrap",
      scope: setDomain.scope,
      summary: "Record the address operators reach this deployment at (used in invite links)",
      body: DomainBody,
      response: { schema: Domain },
    },
    async (c, { body, reply }) => reply(await setDomain({ ctx: verbContext(c), input: { publicUrl: body.public_url } })),
  );
}
