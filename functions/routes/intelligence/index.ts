// [intelligence] spec 4.1: bare arrays and objects exactly as the spec names them.
import type { Hono } from "hono";
import { BlastRadius, BlastRadiusParams, CapacityForecasts, Recommendations } from "../../../shared/schemas/intelligence.ts";
import { getBlastRadius, listCapacityForecasts, listRecommendations } from "../../../shared/verbs/intelligence/read.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function intelligenceRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/intel/blast-radius/:asset_type/:asset_id",
      tag: "intelligence",
      summary: "What breaks if this asset goes down: a breadth-first walk over the six dependency edge kinds",
      description:
        "Edges: hardware connections, hardware sharing a network (both ways), compute units on hardware, services on hardware or compute units, service dependencies (A depends on B: B down impacts A), storage on hardware. The root is not counted. Needs the read scope of the root's kind (read:hardware, read:compute, read:services, read:storage); impacted assets of a kind the caller cannot read are left out of the lists and counted in hidden_impact_count.",
      params: BlastRadiusParams,
      response: { schema: BlastRadius },
    },
    async (c, { params, reply }) =>
      reply(await getBlastRadius({ ctx: verbContext(c), input: { type: params.asset_type, id: params.asset_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/intel/capacity-forecasts",
      tag: "intelligence",
      scope: listCapacityForecasts.scope,
      summary: "Disk and memory saturation forecasts, soonest first (no projection last)",
      response: { schema: CapacityForecasts },
    },
    async (c, { reply }) => reply(await listCapacityForecasts({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/intel/resource-efficiency",
      tag: "intelligence",
      scope: listRecommendations.scope,
      summary: "Right-sizing recommendations, most recent first",
      response: { schema: Recommendations },
    },
    async (c, { reply }) => reply(await listRecommendations({ ctx: verbContext(c) })),
  );
}
