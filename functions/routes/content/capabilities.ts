// [capabilities] GET /capabilities: what this deployment can do, from the process's own dependencies.
import type { Hono } from "hono";
import { Capabilities } from "../../../shared/schemas/system.ts";
import { agentFeatures } from "../../../shared/verbs/agents/agent-features.ts";
import { capabilities } from "../../../shared/verbs/system/capabilities.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function capabilityRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/capabilities",
      tag: "capabilities",
      summary: "What this deployment can do (database, Redis, edge, features, agents, vault)",
      description: "Worked out from what this process was given, not from configuration wishes: on an edge worker redis is false.",
      response: { schema: Capabilities },
    },
    async (c, { reply }) => {
      const deps = c.get("deps");
      const facts = {
        database: deps.database.kind,
        redisConfigured: Boolean(deps.config.REDIS_URL),
        rateLimitStore: deps.config.RATE_LIMIT_STORE,
        apiDocsAssets: deps.assets !== undefined,
      };
      const builds = await deps.agentBinaries?.list();
      const [system, agents] = await Promise.all([
        capabilities({ ctx: verbContext(c), input: facts }),
        agentFeatures({ ctx: verbContext(c), input: { builds } }),
      ]);
      return reply({ ...system, ...agents });
    },
  );
}
